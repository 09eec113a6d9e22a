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


class ComparisonTests(unittest.TestCase):

    def setUp(self):
        self.ptr1 = JsonPointer("/a/b/c")
        self.ptr2 = JsonPointer("/a/b")
        self.ptr3 = JsonPointer("/b/c")

    def test_join_chains_original_error(self):
        with self.assertRaises(JsonPointerException) as caught:
            self.ptr1.join(0)
        self.assertIsInstance(caught.exception.__cause__, TypeError)

    def test_join_preserves_control_flow_exceptions(self):
        for exception_type in (KeyboardInterrupt, SystemExit, GeneratorExit):
            with self.subTest(exception_type=exception_type):
                error = exception_type()

                def parts():
                    yield 'valid'
                    raise error

                with self.assertRaises(exception_type) as caught:
                    self.ptr1.join(parts())
                self.assertIs(caught.exception, error)


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
