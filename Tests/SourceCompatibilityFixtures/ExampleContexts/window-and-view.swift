// The context of an example that uses a window and a view in it.
// compile: -parse-as-library
import UIKit

@MainActor func example(window: UIWindow, view: UIView) throws {
// EXAMPLE
}
