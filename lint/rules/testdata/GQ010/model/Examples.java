package shop.model;

// The generated Example classes of the fixture's mappers, one file each in
// a real project: those of shared/*.xml extend BaseExample, the others
// nothing, so that the helper of PageSorts.java reaches only the former.
class TSkuExample extends BaseExample {}

class TSpuExample extends BaseExample {}

class TBrandExample extends BaseExample {}

class TInventoryExample {}

class TOrderExample {}

class TPatternExample {}

class TLoosePatternExample {}

class TConstraintExample {}

class TLooseConstraintExample {}

class TQueryExample {}

class TQueryOrderExample {}

class TGuardExample {}

class TSwitchExample {}

class TLookupExample {}

class TUncheckedExample {}
