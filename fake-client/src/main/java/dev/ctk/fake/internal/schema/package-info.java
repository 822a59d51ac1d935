/**
 * CustomResourceDefinition structural schemas, as kube-apiserver (1.32) applies them to custom resources:
 * {@link dev.ctk.fake.internal.schema.CustomResourceSchema} per served version, built by the registry from the CRD
 * and used by admission (decode on write, validation) and by every read ({@code ResourceType.serve}).
 *
 * <p>What it does:
 * <ul>
 *   <li>Pruning of unknown fields on every write and read ({@link dev.ctk.fake.internal.schema.Pruning}), honouring
 *       {@code x-kubernetes-preserve-unknown-fields} and {@code x-kubernetes-embedded-resource}; {@code apiVersion},
 *       {@code kind} and {@code metadata} stay at the root, and metadata is reduced to kube's {@code ObjectMeta}
 *       fields ({@link dev.ctk.fake.internal.schema.ObjectMetaFields}).</li>
 *   <li>Defaulting ({@link dev.ctk.fake.internal.schema.Defaulting}): disallowed nulls dropped, {@code default}s
 *       applied on create, update, status writes, after a mutating admission hook changed the object, and on read
 *       (so defaults added to a CRD later show up on stored objects); nested defaults only where the parent exists.
 *       </li>
 *   <li>OpenAPI validation ({@link dev.ctk.fake.internal.schema.SchemaValidator}) with kube's 422 causes and texts:
 *       {@code type}, {@code nullable}, {@code x-kubernetes-int-or-string}, {@code enum}, {@code required},
 *       {@code minimum}/{@code maximum} (and exclusive), {@code multipleOf}, {@code minLength}/{@code maxLength},
 *       {@code pattern}, {@code minItems}/{@code maxItems}, {@code minProperties}/{@code maxProperties}, the
 *       formats listed in {@link dev.ctk.fake.internal.schema.Formats}; ratcheting on update (unchanged invalid
 *       values pass, as with kube's default {@code CRDValidationRatcheting}); status writes checked against the
 *       status schema; the scale subresource's replica and selector paths; {@code x-kubernetes-list-type}
 *       {@code set}/{@code map} uniqueness; embedded resources' {@code apiVersion} and {@code kind}.</li>
 *   <li>Structural checks on CRD writes for the common mistakes ({@link dev.ctk.fake.internal.schema.StructuralChecks}).
 *       </li>
 * </ul>
 *
 * <p>Limits (what it does NOT do):
 * <ul>
 *   <li>CEL validation rules ({@code x-kubernetes-validations}) are not evaluated here but by
 *       {@code dev.ctk.fake.internal.cel}, after these checks. No {@code allOf}, {@code anyOf}, {@code oneOf},
 *       {@code not} or {@code uniqueItems} evaluation; {@code additionalProperties: false} is never reported (pruning
 *       removes such fields first, as in kube).</li>
 *   <li>No conversion webhooks and no conversion at all: every served version reads and writes the same stored
 *       objects, each version pruned, defaulted and validated by its own schema, only {@code apiVersion} differs;
 *       read-time defaults come from the version read, where kube applies the storage version's first.</li>
 *   <li>Formats: only those listed in {@link dev.ctk.fake.internal.schema.Formats} are checked, with rules close to but
 *       not identical to go-openapi's; {@code isbn}, {@code creditcard} and {@code rgbcolor} are accepted unchecked.
 *       </li>
 *   <li>A CRD version without a schema is accepted (kube requires one) and keeps every field of its objects. Value
 *       validations in {@code metadata} schemas, defaults' own validation and most of kube's CRD validation (beyond
 *       names, versions and the structural checks) are not done.</li>
 *   <li>Where kube's error order depends on Go map iteration (several invalid properties) it is random; the fake
 *       reports them in the order the object lists its fields. Metadata fields of the wrong type are kept (kube
 *       answers 400); embedded resources' metadata is not validated.</li>
 *   <li>Reads apply defaults to what they return, but an update compares against the object as stored: an object
 *       stored before its CRD gained a default gets it on its next write, which then counts as a spec change
 *       ({@code generation} + 1), where kube had already defaulted the stored object when reading it.</li>
 * </ul>
 */
package dev.ctk.fake.internal.schema;
