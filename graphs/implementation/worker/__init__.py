"""The worker: one file of a revision, written by the model, asked again while it cannot stand."""
