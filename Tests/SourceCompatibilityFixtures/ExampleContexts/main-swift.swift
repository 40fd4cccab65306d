// The context of a main.swift that starts an application: its delegate
// class, declared elsewhere in the app.
import UIKit

class AppDelegate: UIResponder, UIApplicationDelegate {}
// EXAMPLE
