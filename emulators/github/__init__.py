"""The GitHub emulator: REST routes, git hosting's checks and CI, webhooks, the app's tokens."""
