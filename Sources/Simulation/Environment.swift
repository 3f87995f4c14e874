/// Error-model presets for typical surroundings (`--environment`).
///
/// | preset | σ_w | σ_b | τ | outliers | σ_total |
/// | --- | --- | --- | --- | --- | --- |
/// | `open-sky` | 1.0 m | 1.7 m | 60 s | none | 2.0 m |
/// | `suburban` | 2.0 m | 3.5 m | 45 s | 0.2 % × 30 m | 4.0 m |
/// | `urban` | 3.0 m | 7.4 m | 30 s | 1 % × 50 m | 8.0 m |
/// | `wifi` | 5.0 m | 19.4 m | 120 s | 1 % × 100 m | 20 m |
/// | `cell` | 50 m | 497 m | 600 s | none | 500 m |
///
/// `none` (``errorFree``), the default, has no error at all (τ 60 s, should `--bias` be
/// given on top). The σ_total column is rounded; the model computes from
/// σ_w and σ_b.
public enum Environment: String, CaseIterable, Sendable {
    /// No error: the fixes are the truth.
    case errorFree = "none"
    /// A clear view of the sky.
    case openSky = "open-sky"
    /// Houses and trees.
    case suburban
    /// A street canyon, with multipath outliers.
    case urban
    /// Wi-Fi positioning.
    case wifi
    /// Cell-tower positioning.
    case cell

    /// The preset's error model.
    public var errorModel: ErrorModel {
        switch self {
        case .errorFree: return ErrorModel(unchecked: 0, 0, ErrorModel.defaultBiasTime, .off)
        case .openSky: return ErrorModel(unchecked: 1.0, 1.7, 60, .off)
        case .suburban: return ErrorModel(unchecked: 2.0, 3.5, 45, ErrorModel.Outliers(unchecked: 0.002, 30))
        case .urban: return ErrorModel(unchecked: 3.0, 7.4, 30, ErrorModel.Outliers(unchecked: 0.01, 50))
        case .wifi: return ErrorModel(unchecked: 5.0, 19.4, 120, ErrorModel.Outliers(unchecked: 0.01, 100))
        case .cell: return ErrorModel(unchecked: 50, 497, 600, .off)
        }
    }
}
