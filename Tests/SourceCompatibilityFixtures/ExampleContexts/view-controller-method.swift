// The context of an example that runs in a view controller: the body of
// one of its methods (so `present` is the controller's), with the app's
// own function its action calls and a recognizer's action method.
// compile: -parse-as-library
import UIKit

@MainActor func deletePhoto() {}

final class PhotoViewController: UIViewController {
    func example() {
// EXAMPLE
    }

    func didPan(_ pan: UIPanGestureRecognizer) {}
}
