/// A reference that does not retain its object, for the back references of
/// the event and frame paths (a view's superview, a layer's superlayer, a
/// recognizer's view, the application's windows): their objects clear them
/// before they go away, and a retain at every read costs (a `weak`
/// reference costs more; docs/performance.md has the figures).
///
/// Debug builds also keep a weak reference beside it and check, at every
/// read, that the object is still there: a reference that outlived its
/// object traps where it is read, instead of reading freed memory. Release
/// builds keep the plain pointer alone.
package struct UnretainedReference<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>
    #if DEBUG
    @usableFromInline weak var living: Object?
    #endif

    @inlinable @inline(__always)
    package init(_ object: Object) {
        unmanaged = .passUnretained(object)
        #if DEBUG
        living = object
        #endif
    }

    /// A reference to `object`, or nil for nil.
    @inlinable @inline(__always)
    package init?(_ object: Object?) {
        guard let object else { return nil }
        self.init(object)
    }

    /// The object, which must still exist.
    @inlinable @inline(__always)
    package var object: Object {
        checkAlive()
        return unmanaged.takeUnretainedValue()
    }

    /// Whether the reference is to `other`; the object is not read.
    @inlinable @inline(__always)
    package func refers(to other: Object) -> Bool {
        unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
    }

    /// In debug builds, whether the object still exists; true in release
    /// builds, which do not know.
    @inlinable @inline(__always)
    package var isObjectAlive: Bool {
        #if DEBUG
        return living != nil
        #else
        return true
        #endif
    }

    @inlinable @inline(__always)
    func checkAlive() {
        assert(isObjectAlive, "an unretained reference to a \(Object.self) was read after the object went away")
    }
}
