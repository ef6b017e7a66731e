"""Template filters for what people read: ``{{ cents|dollars }}`` → ``$1,234.56``,
``{{ section|cite }}``, ``{{ moment|moment }}``, ``{{ inventory|chips }}``."""

from django import template

from tables import formatting

register = template.Library()
register.filter("dollars", formatting.dollars)
register.filter("cite", formatting.cite)
register.filter("moment", formatting.moment)
register.filter("chips", formatting.denominations)
