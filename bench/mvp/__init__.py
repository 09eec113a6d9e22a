"""The MVP builder's benchmark: prompts of several kinds, each project scored on what landed."""
