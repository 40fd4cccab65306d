// The context of an example that runs in a view controller: the body of
// one of its methods (so `present` is the controller's), with the app's
// own function its action calls.
// compile: -parse-as-library
import UIKit

@MainActor func deletePhoto() {}

final class PhotoViewController: UIViewController {
    func example() {
// EXAMPLE
    }
}
