import TestExpectations
import Testing
import CoreGraphics
import GeometryTestSupport

@Suite struct CGAffineTransformTests {
    // A general transform used throughout, and a second one to compose with.
    let t1 = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    let t2 = CGAffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)

    // MARK: Constructors

    @Test func identity() {
        let t = CGAffineTransform.identity
        #expect(t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && t.tx == 0 && t.ty == 0)
        #expect(t.isIdentity)
        expectEqual(CGAffineTransform(), .identity)
        expectEqual(CGAffineTransform(1, 0, 0, 1, 0, 0), .identity)
        #expect(!t1.isIdentity)
        expectEqual(CGPoint(x: 3.5, y: -7).applying(.identity), CGPoint(x: 3.5, y: -7))
        expectEqual(CGRect(x: 1, y: 2, width: 3, height: 4).applying(.identity), CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func unlabelledInitialiserKeepsTheOrder() {
        expectEqual(CGAffineTransform(1, 2, 3, 4, 5, 6), t1)
    }

    @Test func translation() {
        let t = CGAffineTransform(translationX: 3, y: -4)
        expectEqual(t, CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: -4))
        // (1, 2) + (3, -4) = (4, -2)
        expectEqual(CGPoint(x: 1, y: 2).applying(t), CGPoint(x: 4, y: -2))
        // Sizes ignore the translation.
        expectEqual(CGSize(width: 5, height: 6).applying(t), CGSize(width: 5, height: 6))
    }

    @Test func scale() {
        let t = CGAffineTransform(scaleX: 2, y: 3)
        expectEqual(t, CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 0, ty: 0))
        // (1·2, 2·3)
        expectEqual(CGPoint(x: 1, y: 2).applying(t), CGPoint(x: 2, y: 6))
        // (4·2, 5·3)
        expectEqual(CGSize(width: 4, height: 5).applying(t), CGSize(width: 8, height: 15))
    }

    @Test func rotation() {
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        // cos(π/2) = 0, sin(π/2) = 1: a = 0, b = 1, c = -1, d = 0.
        #expect(approximately(quarter, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)))
        // Positive angles turn clockwise with y down: +x goes to +y, +y to -x.
        #expect(approximately(CGPoint(x: 1, y: 0).applying(quarter), CGPoint(x: 0, y: 1)))
        #expect(approximately(CGPoint(x: 0, y: 1).applying(quarter), CGPoint(x: -1, y: 0)))
        // (3, 4) → (a·3 + c·4, b·3 + d·4) = (-4, 3)
        #expect(approximately(CGPoint(x: 3, y: 4).applying(quarter), CGPoint(x: -4, y: 3)))

        let eighth = CGAffineTransform(rotationAngle: .pi / 4)
        let s = 2.0.squareRoot() / 2
        #expect(approximately(eighth, CGAffineTransform(a: s, b: s, c: -s, d: s, tx: 0, ty: 0)))
        expectEqual(CGAffineTransform(rotationAngle: 0), .identity)
    }

    // MARK: Applying

    @Test func applyingToAPointUsesTheDocumentedFormula() {
        // (x, y) = (2, -1) → (a·x + c·y + tx, b·x + d·y + ty)
        //                  = (1·2 + 3·(-1) + 5, 2·2 + 4·(-1) + 6) = (4, 6)
        expectEqual(CGPoint(x: 2, y: -1).applying(t1), CGPoint(x: 4, y: 6))
    }

    @Test func applyingToASizeIgnoresTranslation() {
        // (w, h) = (2, -1) → (a·w + c·h, b·w + d·h) = (2 - 3, 4 - 4) = (-1, 0)
        expectEqual(CGSize(width: 2, height: -1).applying(t1), CGSize(width: -1, height: 0))
        // A quarter turn swaps the sides, with a sign: (4, 5) → (0·4 - 1·5, 1·4 + 0·5) = (-5, 4)
        #expect(approximately(CGSize(width: 4, height: 5).applying(CGAffineTransform(rotationAngle: .pi / 2)),
                              CGSize(width: -5, height: 4)))
    }

    @Test func applyingToARectWithScaleAndTranslation() {
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20)
        // x = 1·2 + 10 = 12, y = 2·3 + 20 = 26, w = 3·2 = 6, h = 4·3 = 12
        expectEqual(CGRect(x: 1, y: 2, width: 3, height: 4).applying(t), CGRect(x: 12, y: 26, width: 6, height: 12))
    }

    @Test func applyingAFlipToARectStandardisesIt() {
        // a = -1: x runs 1…4 → -1…-4, so the rect is x -4, width 3.
        let flip = CGAffineTransform(scaleX: -1, y: 1)
        expectEqual(CGRect(x: 1, y: 2, width: 3, height: 4).applying(flip), CGRect(x: -4, y: 2, width: 3, height: 4))
        // A rect with a negative width is read as its standardised self first.
        expectEqual(CGRect(x: 4, y: 2, width: -3, height: 4).applying(.identity), CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func applyingARotationToARectGivesTheBoundingBox() {
        // (0,0,4,2) turned a quarter: corners (0,0)→(0,0), (4,0)→(0,4),
        // (4,2)→(-2,4), (0,2)→(-2,0); bounding box x -2…0, y 0…4.
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(approximately(CGRect(x: 0, y: 0, width: 4, height: 2).applying(quarter),
                              CGRect(x: -2, y: 0, width: 2, height: 4)))
        // (0,0,2,2) turned an eighth, s = √2/2: (x,y) → (s·x - s·y, s·x + s·y);
        // corners (0,0), (2s,2s), (0,4s), (-2s,2s): x -√2…√2, y 0…2√2.
        let r2 = 2.0.squareRoot()
        #expect(approximately(CGRect(x: 0, y: 0, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4)),
                              CGRect(x: -r2, y: 0, width: 2 * r2, height: 2 * r2)))
    }

    @Test func applyingAShearToARectGivesTheBoundingBox() {
        // c = 1: (x, y) → (x + y, y). Corners of (0,0,2,3): (0,0), (2,0), (5,3), (3,3).
        let shear = CGAffineTransform(a: 1, b: 0, c: 1, d: 1, tx: 0, ty: 0)
        expectEqual(CGRect(x: 0, y: 0, width: 2, height: 3).applying(shear), CGRect(x: 0, y: 0, width: 5, height: 3))
    }

    // MARK: Composition

    @Test func concatenatingAppliesSelfThenTheArgument() {
        let move = CGAffineTransform(translationX: 10, y: 0)
        let double = CGAffineTransform(scaleX: 2, y: 2)
        // Move then double: (1,1) → (11,1) → (22,2)
        expectEqual(CGPoint(x: 1, y: 1).applying(move.concatenating(double)), CGPoint(x: 22, y: 2))
        expectEqual(move.concatenating(double), CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 20, ty: 0))
        // Double then move: (1,1) → (2,2) → (12,2)
        expectEqual(CGPoint(x: 1, y: 1).applying(double.concatenating(move)), CGPoint(x: 12, y: 2))
    }

    @Test func concatenatingMultipliesRowMatrices() {
        // [1 2 0; 3 4 0; 5 6 1] × [7 8 0; 9 10 0; 11 12 1]
        //   a  = 1·7 + 2·9 = 25          b  = 1·8 + 2·10 = 28
        //   c  = 3·7 + 4·9 = 57          d  = 3·8 + 4·10 = 64
        //   tx = 5·7 + 6·9 + 11 = 100    ty = 5·8 + 6·10 + 12 = 112
        expectEqual(t1.concatenating(t2), CGAffineTransform(a: 25, b: 28, c: 57, d: 64, tx: 100, ty: 112))
        // The same point both ways: (1, 1) → t1 → (1+3+5, 2+4+6) = (9, 12)
        //   → t2 → (7·9 + 9·12 + 11, 8·9 + 10·12 + 12) = (182, 204)
        //   and with the product: (25 + 57 + 100, 28 + 64 + 112) = (182, 204).
        expectEqual(CGPoint(x: 1, y: 1).applying(t1).applying(t2), CGPoint(x: 182, y: 204))
        expectEqual(CGPoint(x: 1, y: 1).applying(t1.concatenating(t2)), CGPoint(x: 182, y: 204))
        expectEqual(t1.concatenating(.identity), t1)
        expectEqual(CGAffineTransform.identity.concatenating(t1), t1)
    }

    // MARK: Inversion

    @Test func invertingAScaleAndTranslation() {
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 6, ty: 8)
        // Undo: subtract (6, 8), then divide by (2, 4): a = 1/2, d = 1/4, tx = -6/2, ty = -8/4.
        let expected = CGAffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: -3, ty: -2)
        expectEqual(t.inverted(), expected)
        expectEqual(t.invertedIfPossible(), expected)
    }

    @Test func invertingAGeneralTransform() {
        // det = 1·4 - 2·3 = -2
        // a' = 4/-2 = -2, b' = -2/-2 = 1, c' = -3/-2 = 1.5, d' = 1/-2 = -0.5
        // tx' = (c·ty - d·tx)/det = (18 - 20)/-2 = 1, ty' = (b·tx - a·ty)/det = (10 - 6)/-2 = -2
        let expected = CGAffineTransform(a: -2, b: 1, c: 1.5, d: -0.5, tx: 1, ty: -2)
        expectEqual(t1.inverted(), expected)
        // (0,0) → t1 → (5, 6) → inverse → (-2·5 + 1.5·6 + 1, 1·5 - 0.5·6 - 2) = (0, 0)
        expectEqual(CGPoint(x: 5, y: 6).applying(expected), .zero)
        expectEqual(t1.concatenating(expected), .identity)
    }

    @Test func invertingARotation() {
        // The inverse of a quarter turn clockwise is a quarter turn back.
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(approximately(quarter.inverted(), CGAffineTransform(rotationAngle: -.pi / 2)))
    }

    @Test(arguments: [
        CGAffineTransform(scaleX: 0, y: 1),
        CGAffineTransform(scaleX: 3, y: 0),
        CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6),  // det = 4 - 4 = 0
        CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 1, ty: 1),
        CGAffineTransform(a: CGFloat.nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
        CGAffineTransform(a: CGFloat.infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0),
    ])
    func singularTransformsAreNotInverted(_ t: CGAffineTransform) {
        #expect(t.invertedIfPossible() == nil)
        let inverted = t.inverted()
        // Compared field by field on bit patterns, since NaN ≠ NaN.
        #expect([inverted.a, inverted.b, inverted.c, inverted.d, inverted.tx, inverted.ty].map(\.bitPattern)
                    == [t.a, t.b, t.c, t.d, t.tx, t.ty].map(\.bitPattern))
    }

    // MARK: Transforms applied before self

    @Test func translatedByTranslatesFirst() {
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 3, y: 4)
        // (1,1) → +(3,4) → (4,5) → ×2 → (8,10); so tx = 3·2, ty = 4·2.
        expectEqual(t, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 6, ty: 8))
        expectEqual(CGPoint(x: 1, y: 1).applying(t), CGPoint(x: 8, y: 10))
    }

    @Test func scaledByScalesFirst() {
        let t = CGAffineTransform(translationX: 10, y: 20).scaledBy(x: 2, y: 3)
        // (1,1) → (2,3) → (12,23): the translation is not scaled.
        expectEqual(t, CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20))
        expectEqual(CGPoint(x: 1, y: 1).applying(t), CGPoint(x: 12, y: 23))
    }

    @Test func rotatedRotatesFirst() {
        let t = CGAffineTransform(translationX: 10, y: 0).rotated(by: .pi / 2)
        // (1,0) → turned to (0,1) → moved to (10,1).
        #expect(approximately(t, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 10, ty: 0)))
        #expect(approximately(CGPoint(x: 1, y: 0).applying(t), CGPoint(x: 10, y: 1)))
    }

    @Test func chainedHelpersComposeLikeCoreGraphics() {
        // identity.translatedBy(100, 0).scaledBy(2, 2): a point is scaled, then moved.
        // (5, 5) → (10, 10) → (110, 10)
        let t = CGAffineTransform.identity.translatedBy(x: 100, y: 0).scaledBy(x: 2, y: 2)
        expectEqual(CGPoint(x: 5, y: 5).applying(t), CGPoint(x: 110, y: 10))
    }

    @Test func descriptionNamesEveryField() {
        expectEqual(t1.description, "CGAffineTransform(a: 1.0, b: 2.0, c: 3.0, d: 4.0, tx: 5.0, ty: 6.0)")
    }

    @Test func equalTransformsHashEqually() {
        expectEqual(Set([t1, CGAffineTransform(1, 2, 3, 4, 5, 6), t2]).count, 2)
    }
}

@Suite struct GeometryHelperTests {
    @Test func cornersRunClockwiseFromTheMinimum() {
        #expect(CGRect(x: 1, y: 2, width: 3, height: 4).corners
                    == [CGPoint(x: 1, y: 2), CGPoint(x: 4, y: 2), CGPoint(x: 4, y: 6), CGPoint(x: 1, y: 6)])
    }

    @Test func boundingCorners() {
        let points = [CGPoint(x: 3, y: -1), CGPoint(x: -2, y: 5), CGPoint(x: 0, y: 0)]
        expectEqual(CGRect(boundingCorners: points), CGRect(x: -2, y: -1, width: 5, height: 6))
        expectEqual(CGRect(boundingCorners: [CGPoint(x: 7, y: 8)]), CGRect(x: 7, y: 8, width: 0, height: 0))
        #expect(CGRect(boundingCorners: []).isNull)
    }

    @Test func finiteness() {
        #expect(CGRect(x: 1, y: 2, width: 3, height: 4).isFinite)
        #expect(!CGRect(x: CGFloat.nan, y: 2, width: 3, height: 4).isFinite)
        #expect(!CGRect(x: 1, y: 2, width: CGFloat.infinity, height: 4).isFinite)
        #expect(!CGRect(x: 1, y: 2, width: 3, height: -CGFloat.infinity).isFinite)
        #expect(CGPoint(x: 0, y: -5).isFinite)
        #expect(!CGPoint(x: 0, y: CGFloat.nan).isFinite)
        #expect(!CGPoint(x: CGFloat.infinity, y: 0).isFinite)
    }
}

@Suite struct CGColorTests {
    @Test func componentsAndEquality() {
        let color = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        expectEqual(color.components, [0.1, 0.2, 0.3, 0.4])
        expectEqual(color, CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        #expect(color != CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
        expectEqual(Set([color, CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)]).count, 1)
        expectEqual(color.description, "CGColor(r: 0.1, g: 0.2, b: 0.3, a: 0.4)")
    }
}
