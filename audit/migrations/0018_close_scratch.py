"""The close's scratch tables (``audit.models.CloseMember``, ``CloseRound``):
unlogged on PostgreSQL, since nothing in them outlives the close that wrote it."""

from django.db import migrations, models


def unlogged(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in ("audit_close_member", "audit_close_round"):
            schema_editor.execute(f"ALTER TABLE {table} SET UNLOGGED")


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0017_partition_schedule'),
    ]

    operations = [
        migrations.CreateModel(
            name='CloseMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('run', models.CharField(max_length=80)),
                ('stream_id', models.CharField(max_length=200)),
                ('first_version', models.IntegerField()),
                ('last_version', models.IntegerField()),
                ('first_position', models.BigIntegerField()),
                ('last_position', models.BigIntegerField()),
            ],
            options={
                'db_table': 'audit_close_member',
                'indexes': [models.Index(fields=['run', 'last_position'], name='close_member_ends')],
                'constraints': [models.UniqueConstraint(fields=('run', 'stream_id'), name='close_member_unique')],
            },
        ),
        migrations.CreateModel(
            name='CloseRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('run', models.CharField(max_length=80)),
                ('stream_id', models.CharField(max_length=200)),
            ],
            options={
                'db_table': 'audit_close_round',
                'indexes': [models.Index(fields=['run', 'stream_id'], name='close_round_run')],
            },
        ),
        migrations.RunPython(unlogged, migrations.RunPython.noop),
    ]
