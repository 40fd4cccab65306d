/// Array operations for main-actor hot paths.
///
/// A closure written in main-actor code and passed to a standard-library
/// function (`filter`, `removeAll(where:)`, …) gets a dynamic check, at
/// every call, that it runs on the main actor: the library is not compiled
/// in Swift 6 mode. Passed to a function of this module, which is, it does
/// not. These forward to the library; the event path uses them, so a touch
/// does not pay for dozens of executor checks.
extension Array {
    func filtered(_ isIncluded: (Element) -> Bool) -> [Element] {
        filter(isIncluded)
    }

    func mapped<T>(_ transform: (Element) -> T) -> [T] {
        map(transform)
    }

    mutating func removeEvery(_ shouldBeRemoved: (Element) -> Bool) {
        removeAll(where: shouldBeRemoved)
    }

    func firstPosition(_ predicate: (Element) -> Bool) -> Int? {
        firstIndex(where: predicate)
    }

    func anySatisfy(_ predicate: (Element) -> Bool) -> Bool {
        contains(where: predicate)
    }
}
