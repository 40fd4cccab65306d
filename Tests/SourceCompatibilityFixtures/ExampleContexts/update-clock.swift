// The context of an example that keeps a clock up to date.
import UIKit

func updateClock() {}
// EXAMPLE
