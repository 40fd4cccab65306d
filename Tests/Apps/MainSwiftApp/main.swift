#if canImport(Glibc)
import Glibc
#endif
import Foundation
import UIKit

// An application started as Xcode's templates did before `@main`: a
// main.swift naming the delegate class. UIKit makes the delegate from the name.

class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        say("launched \(type(of: application.delegate!)) from its name")
        Task { @MainActor in
            say("a main-actor task ran")
            exit(0)
        }
        return true
    }
}

func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))
