"""What the bench scripts share: the stack they start, the scripted model, figures and histories."""
