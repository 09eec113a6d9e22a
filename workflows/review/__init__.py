"""The review phase: the pull request followed through CI, reviews, pushes and its merge."""
