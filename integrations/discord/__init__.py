"""Discord: messages with embeds to a channel through its webhook URL."""
