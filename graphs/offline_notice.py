"""The label every answer of the offline model carries."""

OFFLINE_NOTICE = "Produced offline without a language model"
