"""What every part of the depot shares: records, units and money."""
