"""Discord's limits, checked the way the real API checks them, with its real error codes.

Bot-side checks raise `DiscordError` (the server turns it into the HTTP error Discord would return and records
a violation). Client-side checks (what the Discord client would never let a user send) raise `ActionRejected`.
"""

from __future__ import annotations

from typing import Any

from sandbox.model import FLAG_COMPONENTS_V2

SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TYPES = (9, 10, 11, 12, 13, 14, 17)


class DiscordError(Exception):
    """An error response exactly as Discord would send it."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}".strip())
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            out["errors"] = self.errors
        return out


class ActionRejected(Exception):
    """A user action the Discord client would refuse (unknown option, disabled button, ...)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class FormErrors:
    """Collects field errors into Discord's nested `errors` object and raises 50035 Invalid Form Body."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: str, code: str, message: str) -> None:
        node = self.errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_len(self, path: str, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        if self.errors:
            raise DiscordError(400, 50035, "Invalid Form Body", self.errors)


def form_error(path: str, code: str, message: str) -> DiscordError:
    """A single-field 50035 Invalid Form Body error."""
    errs = FormErrors()
    errs.add(path, code, message)
    return DiscordError(400, 50035, "Invalid Form Body", errs.errors)


def check_message(body: dict[str, Any], *, new_files: int, is_edit: bool, prefix: str = "") -> None:
    """Validate a message create/edit body (channel message, interaction reply, followup or webhook edit)."""
    errs = FormErrors()
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        errs.add(prefix + "content", "BASE_TYPE_BAD_STRING", "Must be a string.")
    errs.max_len(prefix + "content", content, 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errs.add(prefix + "embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    for i, embed in enumerate(embeds):
        _check_embed(errs, f"{prefix}embeds.{i}", embed)
    total = sum(_embed_chars(e) for e in embeds)
    if total > 6000:
        errs.add(prefix + "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    components = body.get("components") or []
    if v2 and (content or embeds):
        errs.add(
            prefix + "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    check_components(errs, prefix + "components", components, v2=v2)
    errs.raise_if_any()
    has_body = (
        bool(content) or bool(embeds) or bool(components) or new_files > 0 or bool(body.get("attachments"))
    )
    if not is_edit and not has_body and not body.get("sticker_ids") and not body.get("poll"):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _embed_chars(embed: dict[str, Any]) -> int:
    n = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    n += len(str((embed.get("footer") or {}).get("text") or ""))
    n += len(str((embed.get("author") or {}).get("name") or ""))
    for fld in embed.get("fields") or []:
        n += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
    return n


def _check_embed(errs: FormErrors, path: str, embed: dict[str, Any]) -> None:
    errs.max_len(f"{path}.title", embed.get("title"), 256)
    errs.max_len(f"{path}.description", embed.get("description"), 4096)
    errs.max_len(f"{path}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
    errs.max_len(f"{path}.author.name", (embed.get("author") or {}).get("name"), 256)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errs.add(f"{path}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, fld in enumerate(fields):
        if not fld.get("name") or not fld.get("value"):
            errs.add(f"{path}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required")
        errs.max_len(f"{path}.fields.{j}.name", fld.get("name"), 256)
        errs.max_len(f"{path}.fields.{j}.value", fld.get("value"), 1024)


def check_components(errs: FormErrors, path: str, components: list[dict[str, Any]], *, v2: bool) -> None:
    seen: set[str] = set()
    count = [0]
    if not v2:
        if len(components) > 5:
            errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errs.add(
                    f"{path}.{i}.type",
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1,) without IS_COMPONENTS_V2.',
                )
                continue
            _check_row(errs, f"{path}.{i}", row, seen, count)
        return
    for i, comp in enumerate(components):
        _check_any(errs, f"{path}.{i}", comp, seen, count)
    if count[0] > 40:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in total components.")


def _check_any(errs: FormErrors, path: str, comp: dict[str, Any], seen: set[str], count: list[int]) -> None:
    ctype = comp.get("type")
    if ctype == 1:
        _check_row(errs, path, comp, seen, count)
        return
    count[0] += 1
    if ctype == 2:
        _check_button(errs, path, comp, seen)
    elif ctype in SELECT_TYPES:
        _check_select(errs, path, comp, seen)
    elif ctype == 10:
        errs.max_len(f"{path}.content", comp.get("content"), 4000)
    elif ctype == 9:
        texts = comp.get("components") or []
        if not 1 <= len(texts) <= 3:
            errs.add(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
        for j, sub in enumerate(texts):
            _check_any(errs, f"{path}.components.{j}", sub, seen, count)
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
            errs.add(
                f"{path}.accessory", "BASE_TYPE_REQUIRED", "A section needs a button or thumbnail accessory."
            )
        else:
            _check_any(errs, f"{path}.accessory", accessory, seen, count)
    elif ctype == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            errs.add(f"{path}.items", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
    elif ctype == 17:
        for j, sub in enumerate(comp.get("components") or []):
            if sub.get("type") == 17:
                errs.add(f"{path}.components.{j}.type", "UNION_TYPE_CHOICES", "Containers cannot be nested.")
            else:
                _check_any(errs, f"{path}.components.{j}", sub, seen, count)
    elif ctype not in V2_TYPES:
        errs.add(f"{path}.type", "UNION_TYPE_CHOICES", f"Unknown component type {ctype}.")


def _check_row(errs: FormErrors, path: str, row: dict[str, Any], seen: set[str], count: list[int]) -> None:
    count[0] += 1
    children = row.get("components") or []
    if not 1 <= len(children) <= 5:
        errs.add(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        errs.add(
            f"{path}.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        cpath = f"{path}.components.{j}"
        count[0] += 1
        if child.get("type") == 2:
            _check_button(errs, cpath, child, seen)
        elif child.get("type") in SELECT_TYPES:
            _check_select(errs, cpath, child, seen)
        else:
            errs.add(f"{cpath}.type", "UNION_TYPE_CHOICES", "Action rows hold only buttons or one select.")


def _check_custom_id(errs: FormErrors, path: str, comp: dict[str, Any], seen: set[str]) -> None:
    custom_id = comp.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        errs.add(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        return
    errs.max_len(f"{path}.custom_id", custom_id, 100)
    if custom_id in seen:
        errs.add(
            f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
        )
    seen.add(custom_id)


def _check_button(errs: FormErrors, path: str, comp: dict[str, Any], seen: set[str]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errs.add(f"{path}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    errs.max_len(f"{path}.label", comp.get("label"), 80)
    if style == 5:
        if not comp.get("url"):
            errs.add(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
        if comp.get("custom_id"):
            errs.add(
                f"{path}.custom_id",
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "Link buttons cannot have a custom id",
            )
    elif style == 6:
        if not comp.get("sku_id"):
            errs.add(f"{path}.sku_id", "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _check_custom_id(errs, path, comp, seen)
        if not comp.get("label") and not comp.get("emoji"):
            errs.add(
                f"{path}.label",
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )


def _check_select(errs: FormErrors, path: str, comp: dict[str, Any], seen: set[str]) -> None:
    _check_custom_id(errs, path, comp, seen)
    errs.max_len(f"{path}.placeholder", comp.get("placeholder"), 150)
    min_values = int(comp.get("min_values", 1))
    max_values = int(comp.get("max_values", 1))
    if not 0 <= min_values <= 25:
        errs.add(f"{path}.min_values", "NUMBER_TYPE_MAX", "min_values must be between 0 and 25.")
    if not 1 <= max_values <= 25:
        errs.add(f"{path}.max_values", "NUMBER_TYPE_MAX", "max_values must be between 1 and 25.")
    if min_values > max_values:
        errs.add(
            f"{path}.min_values",
            "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
            "min_values must be less than or equal to max_values",
        )
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        errs.add(f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
    if max_values > len(options):
        errs.add(
            f"{path}.max_values",
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values must be less than or equal to the number of options",
        )
    values: set[str] = set()
    for k, opt in enumerate(options):
        opath = f"{path}.options.{k}"
        for key, limit in (("label", 100), ("value", 100), ("description", 100)):
            errs.max_len(f"{opath}.{key}", opt.get(key), limit)
        if not opt.get("label") or not opt.get("value"):
            errs.add(opath, "BASE_TYPE_REQUIRED", "Options need a label and a value.")
        if opt.get("value") in values:
            errs.add(
                f"{opath}.value",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option value cannot be duplicated",
            )
        values.add(opt.get("value"))
    if sum(1 for o in options if o.get("default")) > max_values:
        errs.add(
            f"{path}.options",
            "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
            "The number of default options exceeds max_values",
        )


def check_modal(data: dict[str, Any]) -> None:
    errs = FormErrors()
    errs.max_len("data.title", data.get("title"), 45)
    errs.max_len("data.custom_id", data.get("custom_id"), 100)
    if not data.get("title") or not data.get("custom_id"):
        errs.add("data", "BASE_TYPE_REQUIRED", "A modal needs a title and a custom_id.")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errs.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    seen: set[str] = set()
    for i, comp in enumerate(comps):
        path = f"data.components.{i}"
        if comp.get("type") == 18:
            errs.max_len(f"{path}.label", comp.get("label"), 45)
            errs.max_len(f"{path}.description", comp.get("description"), 100)
            inner = [comp.get("component") or {}]
        elif comp.get("type") == 1:
            inner = comp.get("components") or []
        elif comp.get("type") == 10:
            continue
        else:
            errs.add(
                f"{path}.type", "UNION_TYPE_CHOICES", "Modals hold labels, text displays or action rows."
            )
            continue
        for j, item in enumerate(inner):
            ipath = f"{path}.components.{j}"
            if item.get("type") == 4:
                _check_custom_id(errs, ipath, item, seen)
                errs.max_len(f"{ipath}.label", item.get("label"), 45)
                errs.max_len(f"{ipath}.placeholder", item.get("placeholder"), 100)
                errs.max_len(f"{ipath}.value", item.get("value"), 4000)
                if item.get("style") not in (1, 2):
                    errs.add(f"{ipath}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
            elif item.get("type") in SELECT_TYPES:
                _check_select(errs, ipath, item, seen)
    errs.raise_if_any()


def check_choices(choices: Any) -> None:
    errs = FormErrors()
    if not isinstance(choices, list):
        errs.add("data.choices", "BASE_TYPE_REQUIRED", "This field is required")
        errs.raise_if_any()
    if len(choices) > 25:
        errs.add("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errs.add(f"data.choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errs.add(f"data.choices.{i}.value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    errs.raise_if_any()
