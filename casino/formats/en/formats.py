"""How the admin writes dates and times for people on the floor: ISO dates and
24-hour times to the second with the zone (the casino's, ``TIME_ZONE``),
instead of English prose ("Nov. 23, 2026, 3:36 a.m.") that drops the seconds."""

DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i:s T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i:s T"
TIME_FORMAT = "H:i:s"
MONTH_DAY_FORMAT = "F j"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 0
THOUSAND_SEPARATOR = ","
