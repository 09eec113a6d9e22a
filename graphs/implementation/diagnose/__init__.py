"""Diagnosis of a failing revision: what each worker is shown of the tests and the review."""
