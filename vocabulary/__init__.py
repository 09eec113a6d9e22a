"""Words and enums every layer reads: a ticket's phases and statuses, why it stopped, the budget
amounts and model prices people write, the workflow's metric. Imports nothing of the project."""
