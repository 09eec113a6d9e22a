"""The MVP builder's activities: its agents and the project they write and test."""
