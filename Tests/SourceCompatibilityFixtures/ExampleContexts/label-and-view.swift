// The context of an example that styles a label and a view.
// compile: -parse-as-library
import UIKit

@MainActor func example(label: UILabel, view: UIView) throws {
// EXAMPLE
}
