from generator.cli import command

command()
