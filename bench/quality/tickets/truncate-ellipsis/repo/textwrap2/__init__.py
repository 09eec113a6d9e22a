"""Text shortening."""
