"""What every settings group shares: how variables are read, and the local state's folder."""

from pathlib import Path
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class CommonSettings(BaseSettings):
    """The prefix, the `.env` file and the folders every process knows."""

    model_config = SettingsConfigDict(env_prefix="TICKETSMITH_", env_file=".env", extra="ignore")

    # The level of the process's own loggers; DEBUG adds every prompt and answer of the local model.
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    data_dir: Path = ROOT / ".data"
    projects_file: Path = ROOT / "projects.toml"
