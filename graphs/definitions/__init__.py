"""Graph definitions shipped with ticketsmith (YAML): the MVP builder and examples."""
