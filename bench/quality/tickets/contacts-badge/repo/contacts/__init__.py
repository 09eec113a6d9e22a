"""An address book: contacts, their details and how the app shows them."""
