"""Request bodies and wire shapes of enrichments: the columns asked of every qualified item of a list
(docs/api.md, Enrichments)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictStr, field_validator, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from leadwire.platform.validation import Metadata, RequestModel, small_metadata, with_examples
from leadwire.providers.reasoner import ENRICHMENT_FORMATS

MAX_DESCRIPTION = 1000
MAX_OPTIONS, MAX_LABEL = 20, 200
MAX_ENRICHMENTS = 10  # per list, counting cancelled ones, not deleted ones
ENRICHMENT_STATUSES = ("pending", "running", "completed", "cancelled")
CELL_STATUSES = ("pending", "completed", "cancelled")
Format = Literal["text", "number", "date", "options", "email", "phone", "url"]
assert set(ENRICHMENT_FORMATS) == set(Format.__args__)  # type: ignore[attr-defined]


class OptionIn(RequestModel):
    label: StrictStr = Field(min_length=1, max_length=MAX_LABEL)


def _invalid(message: str) -> PydanticCustomError:
    return PydanticCustomError("invalid_enrichment", message)


class EnrichmentRequest(RequestModel):
    model_config = with_examples(
        {
            "description": "Does the company sell to hospitals?",
            "format": "options",
            "options": [{"label": "yes"}, {"label": "no"}],
        },
        {"description": "Email of the head of procurement", "format": "email"},
        {"description": "Number of employees", "format": "number"},
    )
    missing_codes = {"description": "invalid_enrichment", "format": "invalid_enrichment"}
    invalid_codes = {
        "description": "invalid_enrichment",
        "format": "invalid_enrichment",
        "options": "invalid_enrichment",
        "metadata": "invalid_enrichment",
    }

    description: StrictStr = Field(json_schema_extra={"maxLength": MAX_DESCRIPTION, "pattern": r"\S"})
    format: Format
    options: list[OptionIn] | None = Field(
        default=None,
        max_length=MAX_OPTIONS,
        description=f"for `options` only: 2 to {MAX_OPTIONS} distinct labels, one of which each cell holds",
    )
    metadata: Metadata = Field(default_factory=dict)

    _metadata = field_validator("metadata")(small_metadata)

    @field_validator("description")
    @classmethod
    def _description(cls, description: str) -> str:
        if not description.strip():
            raise _invalid("description must not be blank")
        if len(description) > MAX_DESCRIPTION:
            raise _invalid(f"description is at most {MAX_DESCRIPTION} characters")
        return description.strip()

    @model_validator(mode="after")
    def _options(self) -> EnrichmentRequest:
        labels = [o.label.strip() for o in self.options or []]
        if self.format != "options":
            if self.options:
                raise _invalid("options are given only with format options")
            return self
        if len(labels) < 2 or len(set(labels)) != len(labels) or not all(labels):
            raise _invalid(f"format options takes 2 to {MAX_OPTIONS} distinct, non-blank labels")
        return self

    @property
    def labels(self) -> list[str]:
        return [o.label.strip() for o in self.options or []]


class ProgressOut(TypedDict):
    done: int
    total: int


class OptionOut(TypedDict):
    label: str


class EnrichmentOut(TypedDict):
    id: str
    object: Literal["enrichment"]
    webset_id: str
    status: str
    description: str
    format: str
    options: list[OptionOut] | None
    metadata: dict[str, str]
    progress: ProgressOut
    job_id: str | None
    created_at: str
    updated_at: str


class ReferenceOut(TypedDict):
    url: str
    title: str | None


class CellOut(TypedDict):
    """One item's answer to one enrichment: `result` null (with reasoning) when it could not be found."""

    enrichment_id: str
    format: str
    status: str
    result: list[str] | None
    reasoning: str | None
    references: list[ReferenceOut]


class EnrichResult(TypedDict):
    """A `websets.enrich` job's result: the non-empty cells it stored (and is charged for)."""

    enrichment_id: str
    webset_id: str
    cells: int
