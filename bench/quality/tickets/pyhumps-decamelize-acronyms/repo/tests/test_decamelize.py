"""
Test decamelization.
"""
import pytest

import humps
