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


class VerboseExceptionsTests(unittest.TestCase):

    def setUp(self):
        # Save original value and ensure verbose mode is on for each test
        self._original = jsonpointer.VERBOSE_EXCEPTIONS
        jsonpointer.VERBOSE_EXCEPTIONS = True

    def tearDown(self):
        jsonpointer.VERBOSE_EXCEPTIONS = self._original

    def test_verbose_exception_includes_doc(self):
        doc = {'foo': 1}
        try:
            resolve_pointer(doc, '/bar')
            self.fail('Expected JsonPointerException')
        except JsonPointerException as e:
            self.assertIn(repr(doc), str(e))

    def test_non_verbose_exception_excludes_doc(self):
        doc = {'foo': 1}
        jsonpointer.VERBOSE_EXCEPTIONS = False
        try:
            resolve_pointer(doc, '/bar')
            self.fail('Expected JsonPointerException')
        except JsonPointerException as e:
            self.assertNotIn(repr(doc), str(e))
            self.assertIn('bar', str(e))


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
