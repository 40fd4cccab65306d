// The context of an example that adds a refresh control: a scroll view
// (a table view's part here) and the app's own reload, which calls back
// when it is done.
// compile: -parse-as-library
import UIKit

@MainActor func reload(then done: @escaping @MainActor () -> Void) {}

@MainActor func example(tableView: UIScrollView) throws {
// EXAMPLE
}
