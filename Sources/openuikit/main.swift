import OpenUIKitCommands

OpenUIKitCommand.main()
