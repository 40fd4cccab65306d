// The context of an example that sets up controls in a view controller:
// the example is the body of one of its methods, so `self` is the
// controller and `Self.volumeChanged` one of its methods.
// compile: -parse-as-library
import UIKit

@MainActor final class Store {
    func save() {}
}

@MainActor let store = Store()

final class SettingsViewController: UIViewController {
    func volumeChanged(_ slider: UISlider) {}

    func example() {
// EXAMPLE
    }
}
