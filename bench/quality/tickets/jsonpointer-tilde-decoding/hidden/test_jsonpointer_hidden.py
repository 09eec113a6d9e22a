#!/usr/bin/env python

import copy
import doctest
import io
import json
import os
import runpy
import shlex
import subprocess
import sys
import tempfile
import textwrap
import unittest
from collections import defaultdict
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import jsonpointer
from jsonpointer import resolve_pointer, EndOfList, JsonPointerException, \
    JsonPointer, set_pointer


class SpecificationTests(unittest.TestCase):
    """ Tests all examples from the JSON Pointer specification """

    def test_escaped_tilde_is_not_decoded_twice(self):
        # RFC 6901 section 4: decode ~1 before ~0, so ~01 becomes ~1, not /.
        pointer = JsonPointer('/~01')
        self.assertEqual(pointer.parts, ['~1'])
        self.assertEqual(JsonPointer.from_parts(pointer.parts).path, '/~01')

        doc = {'~1': 'tilde member', '/': 'slash member'}
        self.assertEqual(resolve_pointer(doc, '/~01'), 'tilde member')
        set_pointer(doc, '/~01', 'updated')
        self.assertEqual(doc, {'~1': 'updated', '/': 'slash member'})


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
