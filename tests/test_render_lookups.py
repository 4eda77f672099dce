"""The templates' environments look names up, translate and write keywords as Jinja's own would: the lookups of a
plain dict's fields, the direct `_()` and the remembered `kw` filter are shortcuts, never other texts."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from jinja2 import Environment, StrictUndefined, UndefinedError

from adjudicator.render import environment, markup_environment
from adjudicator.render.i18n import translations
from adjudicator.rulesets import load_ruleset


def jinja_own(source: str, **context: object) -> str:
    """`source` rendered by a plain Jinja environment of the same settings (no i18n): the reference."""
    plain = Environment(undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return plain.from_string(source).render(**context)


LOOKUPS = "{{ a.owner }} {{ a.items() | list | length }} {{ a.get('owner') }} {{ n.owner }} {{ a.units.items()|list }}"


def test_a_dicts_fields_and_methods_are_read_as_jinja_reads_them() -> None:
    context = {"a": {"owner": "Egyptus", "units": {"Egyptus": 3}, "items": "a field named like a method"}}
    context["n"] = SimpleNamespace(owner="Hispania")
    assert environment("en").from_string(LOOKUPS).render(**context) == jinja_own(LOOKUPS, **context)
    # a method's name is the method, not the field (Jinja tries the attribute first)
    assert environment("en").from_string("{{ a.items is callable }}").render(**context) == "True"


def test_a_missing_field_of_a_dict_is_undefined_as_before() -> None:
    template = environment("en").from_string("{{ a.nobody }}")
    with pytest.raises(UndefinedError):
        template.render(a={"owner": "Egyptus"})
    assert environment("en").from_string("{{ a.nobody | default('none') }}").render(a={}) == "none"


def test_gettext_formats_every_message_and_escapes_its_values_where_escaping_is_on() -> None:
    source = '{{ _("100%%") }} {{ _("Treasury %(treasury)s", treasury=t) }} {{ gettext("city") }}'
    assert environment("en").from_string(source).render(t="<5>") == "100% Treasury <5> city"
    assert markup_environment("en").from_string(source).render(t="<5>") == "100% Treasury &lt;5&gt; city"
    # a German reader's catalogue, as Jinja's own newstyle gettext gives it
    german = translations("de").ugettext("Your pieces:")
    assert german != "Your pieces:"
    assert environment("de").from_string('{{ _("Your pieces:") }}').render() == german


def test_keywords_are_written_in_the_readers_language_and_the_contexts_ruleset() -> None:
    ruleset = load_ruleset("coe-classic")
    source = '{{ "move" | kw }} {{ "infantry" | kw }} {{ "game" | kw }}'
    assert environment("en").from_string(source).render(ruleset=ruleset) == "MOVE INF GAME"
    german = environment("de").from_string(source)
    assert german.render(ruleset=ruleset) == german.render(ruleset="coe-classic") == german.render(state={})
    assert german.render(ruleset=ruleset).split()[0] == "ZIEHE"


CALLS = """{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}
{% for n in names %}{% set shown = n | upper %}{{ twice(shown) }} {{ seen(shown) }} {{ where(n) }} {{ d.get(n, "-") }}
{% endfor %}{{ _("city") }} {{ empty() is undefined }}|{{ obj.method("x") }}|{{ callable_obj(1) }}"""


def test_calls_take_the_context_and_loop_variables_as_jinja_gives_them() -> None:
    from jinja2 import pass_context, pass_environment

    @pass_context
    def seen(context: object, name: str) -> str:  # a loop's own variable reaches it, as Jinja derives the context
        return f"{context.get('shown') == name}"  # type: ignore[attr-defined]

    @pass_environment
    def where(env: object, name: str) -> str:
        return f"{type(env).__name__ != 'NoneType'}:{name}"

    def empty() -> str:
        raise StopIteration  # Jinja makes it an undefined value

    class Callable:
        def __call__(self, n: int) -> int:
            return n + 1

        def method(self, text: str) -> str:
            return text * 2

    context = {"names": ["a", "b"], "seen": seen, "where": where, "d": {"a": 1}, "empty": empty}
    context |= {"obj": Callable(), "callable_obj": Callable()}
    plain = Environment(
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False
    )
    plain.globals["_"] = lambda message: message
    reference = plain.from_string(CALLS).render(**context)
    assert environment("en").from_string(CALLS).render(**context) == reference
    assert "AA True True:a 1" in reference and "BB True True:b -" in reference and "city True|xx|2" in reference
