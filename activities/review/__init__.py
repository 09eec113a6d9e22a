"""The review phase's activities: rounds on the pull request's branch (revise, push, judge its
comments, bring the base in), its CI and its comments."""
