"""Shipping: parcels, what couriers charge, labels and tracking."""
