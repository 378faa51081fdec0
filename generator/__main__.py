from generator.cli.main import main

main()
