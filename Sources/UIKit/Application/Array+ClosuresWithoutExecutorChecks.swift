/// The standard library's closure-taking methods, for main-actor code on
/// the event path.
///
/// A closure written in main-actor code and passed to a standard-library
/// function (`filter`, `contains(where:)`, …) gets a dynamic check, at
/// every call, that it runs on the main actor: the library is not compiled
/// in Swift 6 mode. Passed to a function of this module, which is, it does
/// not. These forward to the library; the event path uses them, so a touch
/// does not pay for dozens of executor checks. `scripts/test` (the
/// event-path lint) rejects new calls of the library's methods there.
extension Array {
    func filtered(_ isIncluded: (Element) -> Bool) -> [Element] {
        filter(isIncluded)
    }

    func mapped<T>(_ transform: (Element) -> T) -> [T] {
        map(transform)
    }

    func firstPosition(_ predicate: (Element) -> Bool) -> Int? {
        firstIndex(where: predicate)
    }
}

extension Sequence {
    func anySatisfy(_ predicate: (Element) -> Bool) -> Bool {
        contains(where: predicate)
    }

    func firstSatisfying(_ predicate: (Element) -> Bool) -> Element? {
        first(where: predicate)
    }
}
