// The context of an example that uses a window: the example is the body of
// a main-actor function that is given one.
// compile: -parse-as-library
import UIKit

@MainActor func example(window: UIWindow) throws {
// EXAMPLE
}
