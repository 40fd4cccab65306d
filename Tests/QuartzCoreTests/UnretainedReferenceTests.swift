import Testing
@testable import QuartzCore

@MainActor
@Suite struct UnretainedReferenceTests {
    @Test func readsTheObjectWithoutKeepingItAlive() {
        var layer: CALayer? = CALayer()
        let reference = UnretainedReference(layer!)
        #expect(reference.object === layer)
        #expect(reference.refers(to: layer!))
        weak let watcher = layer
        layer = nil
        #expect(watcher == nil)  // the reference did not keep it
    }

    /// What the debug builds' check at every read relies on: the reference
    /// knows when its object has gone (a read would then trap). Release
    /// builds do not know, and do not check.
    @Test func knowsInDebugBuildsWhenItsObjectHasGone() {
        var layer: CALayer? = CALayer()
        let reference = UnretainedReference(layer!)
        #expect(reference.isObjectAlive)
        layer = nil
        #if DEBUG
        #expect(!reference.isObjectAlive)
        #else
        #expect(reference.isObjectAlive)
        #endif
    }

    @Test func aSubviewsSuperlayerReferenceIsClearedBeforeTheSuperlayerGoes() {
        let sublayer = CALayer()
        do {
            let parent = CALayer()
            parent.addSublayer(sublayer)
            #expect(sublayer.superlayer === parent)
        }
        // Read after the parent went away: in a debug build, a reference
        // left behind would trap here.
        #expect(sublayer.superlayer == nil)
    }
}
