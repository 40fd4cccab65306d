// The context of an example that animates a view: a function of the app
// with the view to animate.
// compile: -parse-as-library
import UIKit

@MainActor func example(card: UIView) {
// EXAMPLE
}
