/**
 * CRD validation rules: {@code x-kubernetes-validations} on custom resource schemas, compiled and evaluated with
 * Google's CEL for Java ({@code dev.cel:cel}) as kube-apiserver 1.32 does it with cel-go.
 * {@link dev.ctk.fake.internal.cel.CustomResourceRules} is what the rest of the fake sees: built per CRD version by
 * the registry (cached by schema content), run by admission after the OpenAPI checks of every create, update, patch
 * and {@code /status} write; {@link dev.ctk.fake.internal.cel.CrdRuleChecks} refuses a CRD whose rules kube would
 * refuse.
 *
 * <p>What it does:
 * <ul>
 *   <li>Rules see {@code self}, typed from the schema node they are declared on (objects with properties are
 *       structs, so naming an undeclared field is a compile error; maps, lists, {@code int}, {@code double},
 *       int-or-string as {@code dyn}; {@code date}/{@code date-time}/{@code duration}/{@code byte} strings as
 *       timestamps, durations and bytes; escaped property names such as {@code self.__namespace__} or
 *       {@code self.x__dash__y}; {@code apiVersion}, {@code kind}, {@code metadata.name} and
 *       {@code metadata.generateName} at the root and in embedded resources; a {@code null} field of an object with
 *       properties is absent, so {@code has()} is false, as in kube's values).</li>
 *   <li>Transition rules ({@code oldSelf}) run on updates when the value has an old counterpart (object fields,
 *       {@code x-kubernetes-list-type: map} keys; not below {@code x-kubernetes-map-type: atomic}), never on
 *       create, nor when the stored value is {@code null}; {@code optionalOldSelf: true} makes {@code oldSelf} an
 *       optional that is empty on create.</li>
 *   <li>{@code message}, {@code messageExpression} (falling back to the message when it fails, is blank or is over 5
 *       KiB; evaluated, as in kube, with the plain {@code oldSelf}, bound only on a node that has a transition rule,
 *       so the message of an {@code optionalOldSelf} rule that uses {@code oldSelf} as an optional falls back),
 *       {@code reason} ({@code FieldValueInvalid}, {@code FieldValueForbidden}, {@code FieldValueRequired},
 *       {@code FieldValueDuplicate}) and {@code fieldPath}, with kube's texts: {@code Invalid value: "object":
 *       <message>} (the node's type), {@code failed rule: <rule>}, {@code <nil>} as the field of rules at the root,
 *       {@code <error> evaluating rule: <rule>} for evaluation errors in cel-go's words.</li>
 *   <li>kube's ordering: rules are skipped with one {@code some validation rules were not checked...} cause when an
 *       OpenAPI error of a blocking kind was found; errors of unchanged values ratchet on update (dropped; kube sends
 *       them as warnings), except those of transition rules; {@code /status} writes evaluate every rule without
 *       ratcheting.</li>
 *   <li>CRD writes: empty rules, blank or multi-line messages, unsupported reasons, invalid field paths, rules that
 *       do not compile or are not {@code bool}, message expressions that are not {@code string}, {@code oldSelf} in
 *       uncorrelatable places, {@code optionalOldSelf} without {@code oldSelf}, rules on nodes CEL cannot type:
 *       each answered with kube's 422 cause, rule printed as kube prints it, compile errors as cel-go prints them
 *       ({@code ERROR: <input>:1:5: undefined field 'x'} with the source line and a caret).</li>
 *   <li>Libraries: standard macros and functions, optional types, cross-type numeric comparisons, homogeneous
 *       aggregate literals, literal checks of {@code matches}/{@code timestamp}/{@code duration}; cel-java's strings
 *       ({@code charAt}, {@code indexOf}, {@code lastIndexOf}, {@code join}, {@code lowerAscii}, {@code upperAscii},
 *       {@code replace}, {@code split}, {@code substring}, {@code trim}, {@code strings.quote}) and sets
 *       ({@code sets.contains}, {@code sets.equivalent}, {@code sets.intersects}); and, implemented here as Java
 *       bindings: lists ({@code isSorted}, {@code sum}, {@code min}, {@code max}, {@code indexOf},
 *       {@code lastIndexOf}), regex ({@code find}, {@code findAll}, RE2 through re2j), URLs ({@code isURL},
 *       {@code url}, {@code getScheme}, {@code getHost}, {@code getHostname}, {@code getPort},
 *       {@code getEscapedPath}, {@code getQuery}), quantities ({@code isQuantity}, {@code quantity}, {@code sign},
 *       {@code isInteger}, {@code asInteger}, {@code asApproximateFloat}, {@code compareTo}, {@code isLessThan},
 *       {@code isGreaterThan}, {@code add}, {@code sub}), IP and CIDR ({@code isIP}, {@code ip},
 *       {@code ip.isCanonical}, {@code family}, {@code isUnspecified}, {@code isLoopback},
 *       {@code isLinkLocalMulticast}, {@code isLinkLocalUnicast}, {@code isGlobalUnicast}, {@code isCIDR},
 *       {@code cidr}, {@code containsIP}, {@code containsCIDR}, {@code ip()}, {@code masked}, {@code prefixLength},
 *       {@code string(ip)}, {@code string(cidr)}) and formats ({@code format.named}, {@code format.<name>()},
 *       {@code validate}, with the 13 formats of kube 1.32).</li>
 * </ul>
 *
 * <p>Limits (what it does NOT do):
 * <ul>
 *   <li>No cost limits: neither the estimated cost kube checks when a CRD is written ({@code estimated rule cost
 *       exceeds budget}: kube refuses, for example, a {@code format} rule on a string without {@code maxLength}, which
 *       the fake accepts) nor the runtime budgets. Rules that are too expensive for kube pass in the fake.</li>
 *   <li>Missing functions: the strings library's {@code format} ({@code "%s".format([...])}), cel-go's
 *       two-variable comprehensions (kube 1.32 accepts them only in rules already stored), the authorizer library
 *       (ValidatingAdmissionPolicy only, and ValidatingAdmissionPolicy is not implemented). Only what kube 1.32
 *       offers to new rules is declared, so rules using later functions ({@code semver}, {@code reverse}, ...) fail
 *       to compile, as in kube 1.32.</li>
 *   <li>{@code string()} of a double, duration or timestamp prints cel-java's text ({@code "2.0"}, where cel-go
 *       prints {@code "2"}). A null field is left out of its object, so it counts for neither {@code has()} nor
 *       {@code ==}; kube counts it in {@code ==} (an object holding one equals no object, itself included). Ratcheting calls a value unchanged when its JSON equals the stored one; kube never calls
 *       values under {@code x-kubernetes-preserve-unknown-fields} unchanged, and ignores the order of map lists.</li>
 *   <li>Lists with {@code x-kubernetes-list-type: set} or {@code map} compare and concatenate as ordinary lists
 *       (kube ignores order in {@code ==} and merges on {@code +}). Struct types are named {@code selfType0...} where
 *       kube puts a number that changes on each compilation; {@code type(self)} of an object is a map type.</li>
 *   <li>Texts: compile and evaluation errors are rewritten into cel-go's words for the common cases (undefined
 *       fields and references, no matching overload, syntax errors, literal checks, no such key, index out of bounds,
 *       division by zero, integer overflow, no such overload, the Kubernetes functions' own errors); rarer ones keep
 *       cel-java's wording. Parse errors of IP addresses give Go's messages without their {@code at} detail. Go
 *       prints the address of a set {@code reason} or {@code optionalOldSelf} in a refused rule; the fake prints
 *       {@code 0xc000000000}.</li>
 *   <li>Several failing rules on sibling properties are reported in the order the object lists its fields, where
 *       kube's order is random (Go map iteration); ratcheted errors are dropped, where kube returns them as
 *       warnings. {@code format: duration} strings follow Go's {@code time.ParseDuration} only (kube's parser also
 *       takes words such as {@code 3 days}).</li>
 * </ul>
 */
package dev.ctk.fake.internal.cel;
