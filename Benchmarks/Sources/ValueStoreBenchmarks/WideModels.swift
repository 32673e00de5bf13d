import Observation
import ValueStore

// A hundred fields three ways, for the tracking calls that read 1, 10 or 100 distinct fields.
// (Semicolon-separated declarations: `@Observable` handles one binding per `var`.)

struct Wide: ObservableState, Sendable {
  struct Fields: Sendable {
    var f0 = 0; var f1 = 0; var f2 = 0; var f3 = 0; var f4 = 0; var f5 = 0; var f6 = 0; var f7 = 0; var f8 = 0; var f9 = 0
    var f10 = 0; var f11 = 0; var f12 = 0; var f13 = 0; var f14 = 0; var f15 = 0; var f16 = 0; var f17 = 0; var f18 = 0; var f19 = 0
    var f20 = 0; var f21 = 0; var f22 = 0; var f23 = 0; var f24 = 0; var f25 = 0; var f26 = 0; var f27 = 0; var f28 = 0; var f29 = 0
    var f30 = 0; var f31 = 0; var f32 = 0; var f33 = 0; var f34 = 0; var f35 = 0; var f36 = 0; var f37 = 0; var f38 = 0; var f39 = 0
    var f40 = 0; var f41 = 0; var f42 = 0; var f43 = 0; var f44 = 0; var f45 = 0; var f46 = 0; var f47 = 0; var f48 = 0; var f49 = 0
    var f50 = 0; var f51 = 0; var f52 = 0; var f53 = 0; var f54 = 0; var f55 = 0; var f56 = 0; var f57 = 0; var f58 = 0; var f59 = 0
    var f60 = 0; var f61 = 0; var f62 = 0; var f63 = 0; var f64 = 0; var f65 = 0; var f66 = 0; var f67 = 0; var f68 = 0; var f69 = 0
    var f70 = 0; var f71 = 0; var f72 = 0; var f73 = 0; var f74 = 0; var f75 = 0; var f76 = 0; var f77 = 0; var f78 = 0; var f79 = 0
    var f80 = 0; var f81 = 0; var f82 = 0; var f83 = 0; var f84 = 0; var f85 = 0; var f86 = 0; var f87 = 0; var f88 = 0; var f89 = 0
    var f90 = 0; var f91 = 0; var f92 = 0; var f93 = 0; var f94 = 0; var f95 = 0; var f96 = 0; var f97 = 0; var f98 = 0; var f99 = 0
  }
  var _$fields = Observed(Fields())
}

/// `@unchecked Sendable` for the same reason as ``AppleCounter``.
@Observable
final class AppleWide: @unchecked Sendable {
  var f0 = 0; var f1 = 0; var f2 = 0; var f3 = 0; var f4 = 0; var f5 = 0; var f6 = 0; var f7 = 0; var f8 = 0; var f9 = 0
  var f10 = 0; var f11 = 0; var f12 = 0; var f13 = 0; var f14 = 0; var f15 = 0; var f16 = 0; var f17 = 0; var f18 = 0; var f19 = 0
  var f20 = 0; var f21 = 0; var f22 = 0; var f23 = 0; var f24 = 0; var f25 = 0; var f26 = 0; var f27 = 0; var f28 = 0; var f29 = 0
  var f30 = 0; var f31 = 0; var f32 = 0; var f33 = 0; var f34 = 0; var f35 = 0; var f36 = 0; var f37 = 0; var f38 = 0; var f39 = 0
  var f40 = 0; var f41 = 0; var f42 = 0; var f43 = 0; var f44 = 0; var f45 = 0; var f46 = 0; var f47 = 0; var f48 = 0; var f49 = 0
  var f50 = 0; var f51 = 0; var f52 = 0; var f53 = 0; var f54 = 0; var f55 = 0; var f56 = 0; var f57 = 0; var f58 = 0; var f59 = 0
  var f60 = 0; var f61 = 0; var f62 = 0; var f63 = 0; var f64 = 0; var f65 = 0; var f66 = 0; var f67 = 0; var f68 = 0; var f69 = 0
  var f70 = 0; var f71 = 0; var f72 = 0; var f73 = 0; var f74 = 0; var f75 = 0; var f76 = 0; var f77 = 0; var f78 = 0; var f79 = 0
  var f80 = 0; var f81 = 0; var f82 = 0; var f83 = 0; var f84 = 0; var f85 = 0; var f86 = 0; var f87 = 0; var f88 = 0; var f89 = 0
  var f90 = 0; var f91 = 0; var f92 = 0; var f93 = 0; var f94 = 0; var f95 = 0; var f96 = 0; var f97 = 0; var f98 = 0; var f99 = 0
}

extension Wide {
  /// The sum of the first `count` fields (1, 10 or 100), each read through the accessor a user
  /// would write: written out, not looped over key paths, so no column pays for key-path dispatch.
  func sum(ofFirst count: Int) -> Int {
    var sum = self.f0
    if count == 1 { return sum }
    sum &+= self.f1; sum &+= self.f2; sum &+= self.f3; sum &+= self.f4; sum &+= self.f5; sum &+= self.f6; sum &+= self.f7; sum &+= self.f8; sum &+= self.f9
    if count == 10 { return sum }
    sum &+= self.f10; sum &+= self.f11; sum &+= self.f12; sum &+= self.f13; sum &+= self.f14; sum &+= self.f15; sum &+= self.f16; sum &+= self.f17; sum &+= self.f18; sum &+= self.f19
    sum &+= self.f20; sum &+= self.f21; sum &+= self.f22; sum &+= self.f23; sum &+= self.f24; sum &+= self.f25; sum &+= self.f26; sum &+= self.f27; sum &+= self.f28; sum &+= self.f29
    sum &+= self.f30; sum &+= self.f31; sum &+= self.f32; sum &+= self.f33; sum &+= self.f34; sum &+= self.f35; sum &+= self.f36; sum &+= self.f37; sum &+= self.f38; sum &+= self.f39
    sum &+= self.f40; sum &+= self.f41; sum &+= self.f42; sum &+= self.f43; sum &+= self.f44; sum &+= self.f45; sum &+= self.f46; sum &+= self.f47; sum &+= self.f48; sum &+= self.f49
    sum &+= self.f50; sum &+= self.f51; sum &+= self.f52; sum &+= self.f53; sum &+= self.f54; sum &+= self.f55; sum &+= self.f56; sum &+= self.f57; sum &+= self.f58; sum &+= self.f59
    sum &+= self.f60; sum &+= self.f61; sum &+= self.f62; sum &+= self.f63; sum &+= self.f64; sum &+= self.f65; sum &+= self.f66; sum &+= self.f67; sum &+= self.f68; sum &+= self.f69
    sum &+= self.f70; sum &+= self.f71; sum &+= self.f72; sum &+= self.f73; sum &+= self.f74; sum &+= self.f75; sum &+= self.f76; sum &+= self.f77; sum &+= self.f78; sum &+= self.f79
    sum &+= self.f80; sum &+= self.f81; sum &+= self.f82; sum &+= self.f83; sum &+= self.f84; sum &+= self.f85; sum &+= self.f86; sum &+= self.f87; sum &+= self.f88; sum &+= self.f89
    sum &+= self.f90; sum &+= self.f91; sum &+= self.f92; sum &+= self.f93; sum &+= self.f94; sum &+= self.f95; sum &+= self.f96; sum &+= self.f97; sum &+= self.f98; sum &+= self.f99
    return sum
  }
}

extension AppleWide {
  /// The sum of the first `count` fields (1, 10 or 100), each read through the accessor a user
  /// would write: written out, not looped over key paths, so no column pays for key-path dispatch.
  func sum(ofFirst count: Int) -> Int {
    var sum = f0
    if count == 1 { return sum }
    sum &+= f1; sum &+= f2; sum &+= f3; sum &+= f4; sum &+= f5; sum &+= f6; sum &+= f7; sum &+= f8; sum &+= f9
    if count == 10 { return sum }
    sum &+= f10; sum &+= f11; sum &+= f12; sum &+= f13; sum &+= f14; sum &+= f15; sum &+= f16; sum &+= f17; sum &+= f18; sum &+= f19
    sum &+= f20; sum &+= f21; sum &+= f22; sum &+= f23; sum &+= f24; sum &+= f25; sum &+= f26; sum &+= f27; sum &+= f28; sum &+= f29
    sum &+= f30; sum &+= f31; sum &+= f32; sum &+= f33; sum &+= f34; sum &+= f35; sum &+= f36; sum &+= f37; sum &+= f38; sum &+= f39
    sum &+= f40; sum &+= f41; sum &+= f42; sum &+= f43; sum &+= f44; sum &+= f45; sum &+= f46; sum &+= f47; sum &+= f48; sum &+= f49
    sum &+= f50; sum &+= f51; sum &+= f52; sum &+= f53; sum &+= f54; sum &+= f55; sum &+= f56; sum &+= f57; sum &+= f58; sum &+= f59
    sum &+= f60; sum &+= f61; sum &+= f62; sum &+= f63; sum &+= f64; sum &+= f65; sum &+= f66; sum &+= f67; sum &+= f68; sum &+= f69
    sum &+= f70; sum &+= f71; sum &+= f72; sum &+= f73; sum &+= f74; sum &+= f75; sum &+= f76; sum &+= f77; sum &+= f78; sum &+= f79
    sum &+= f80; sum &+= f81; sum &+= f82; sum &+= f83; sum &+= f84; sum &+= f85; sum &+= f86; sum &+= f87; sum &+= f88; sum &+= f89
    sum &+= f90; sum &+= f91; sum &+= f92; sum &+= f93; sum &+= f94; sum &+= f95; sum &+= f96; sum &+= f97; sum &+= f98; sum &+= f99
    return sum
  }
}
