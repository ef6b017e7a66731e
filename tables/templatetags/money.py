"""``{{ amount_cents|dollars }}`` → ``$1,234.56``: money is cents everywhere but on screen."""

from django import template

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    if cents is None or cents == "":
        return "—"
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"
