// The context of an example that sets up controls and images in a screen:
// the body of a main-actor function given the screen's view and a label,
// with the app's own functions the actions call, and the target's
// resource bundle (`Bundle.module`, which SwiftPM generates for a target
// with resources).
// compile: -parse-as-library
import UIKit

@MainActor func reload(by column: Int) {}
@MainActor func scroll(toPage page: Int) {}

extension Bundle {
    static var module: Bundle { .main }
}

@MainActor func example(view: UIView, label: UILabel) throws {
// EXAMPLE
}
