// Swift 6 code must still get the checks: calling into UIKit from a
// nonisolated async function without `await` is an error.
import UIKit

func addBadge(to view: UIView) async {
    view.addSubview(UIView())
}
