// The context of an example that sets up tabs: a window and the tabs'
// view controllers.
// compile: -parse-as-library
import UIKit

@MainActor func example(window: UIWindow, home: UIViewController, search: UIViewController, settings: UIViewController) throws {
// EXAMPLE
}
