"""A refusal keeps a bounded prefix of its body with the whole body's length
and SHA-256 (issue 14: anonymous 2.4 MB bodies filled the table, which refuses
DELETE). Nullable, with no default: on SQLite that is an ALTER TABLE ADD COLUMN,
whereas a rebuilt table would drop the append-only triggers of 0002 (on
PostgreSQL adding a nullable column fires no row trigger either). Rows from
before keep their whole body in raw_body and null here."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0012_configuration_permissions'),
    ]

    operations = [
        migrations.AddField(
            model_name='rejectedsubmission',
            name='body_length',
            field=models.BigIntegerField(help_text="the whole body's length, bytes", null=True),
        ),
        migrations.AddField(
            model_name='rejectedsubmission',
            name='body_prefix',
            field=models.BinaryField(help_text="the body's first bytes, as received", null=True),
        ),
        migrations.AddField(
            model_name='rejectedsubmission',
            name='body_sha256',
            field=models.CharField(help_text='SHA-256 of the whole body; empty when not read', max_length=64, null=True),
        ),
    ]
