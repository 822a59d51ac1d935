/**
 * Server-side apply and {@code metadata.managedFields} for the fake API server, following kube-apiserver's field
 * manager and structured-merge-diff: field sets ({@link dev.ctk.fake.internal.apply.FieldSet}, kube's
 * {@code fieldsV1} format with {@code f:}, {@code k:}, {@code v:}, {@code i:} and {@code "."}), the merge of an
 * applied configuration, pruning of fields an applier stops applying, conflicts (409 with
 * {@code FieldManagerConflict} causes), {@code force}, and the {@code Update} entries every create, update and
 * patch records (named by {@code fieldManager} or the User-Agent), the {@code before-first-apply} entry of objects
 * without managedFields, the cap of ten updaters ({@code ancient-changes}), kubectl's upgrade from client-side apply
 * (manager {@code kubectl}: conflicts the {@code last-applied-configuration} annotation explains are taken over, and
 * the annotation follows the applied configuration), and no-op writes that keep their resourceVersion.
 * {@link dev.ctk.fake.internal.apply.FieldTracking} is the entry point the store calls.
 *
 * <p>What it does not do:
 * <ul>
 *   <li>No OpenAPI. Built-in kinds merge by the strategic-merge tags of
 *       {@link dev.ctk.fake.internal.patch.PatchSchema} plus a short table of list types and atomic structs
 *       ({@code BuiltinTypes.OVERRIDES}: ports keyed by port and protocol, selectors, env sources, node affinity);
 *       any other list of a built-in kind is atomic, and every field of a built-in object counts as declared.
 *       Custom resources use their CRD's {@code openAPIV3Schema}; without one, lists are atomic.
 *   <li>The applied configuration is not validated against a schema: unknown fields and wrong types are not
 *       refused with kube's {@code field not declared in schema} (they are pruned or validated later, like any
 *       write). Only what merging needs is checked: list items without their key (500, kube's text), duplicates.
 *   <li>No conversion between versions: multi-version custom resources share one schema here, so sets recorded
 *       in one version are compared as they are in another.
 *   <li>No server-side apply on {@code /scale} (415); scale writes are recorded as {@code Update} entries with
 *       {@code subresource: scale} owning the replicas field.
 *   <li>The baseline of a create ({@code ZeroObjects}, from each kind's row in {@code BuiltinKinds}) lists the empty
 *       structs of the common built-in kinds only;
 *       for other kinds an {@code Update} entry may show {@code "."} for an object kube's Go type always has.
 *       Fields the fake adds after the request (Job selector, Service cluster IPs, Pod status) are, as in kube,
 *       owned by no one.
 *   <li>Seeded and injected objects ({@code FakeCluster} seeding, {@code EventInjector}) keep the managedFields
 *       they carry and record none of their own; objects seeded without managedFields are untracked, as objects
 *       kube created before tracking: updates do not start tracking, the first apply records their fields under
 *       {@code before-first-apply}.
 *   <li>An object emptied by pruning or removal loses the emptied field rather than keeping {@code null} or
 *       {@code {}}; {@code null} in an applied configuration clears scalars and atomic values and leaves mergeable
 *       objects and lists alone.
 *   <li>No {@code fieldValidation} (Strict/Warn) handling, no length check of {@code fieldManager}, no
 *       managedFields size limits.
 * </ul>
 */
package dev.ctk.fake.internal.apply;
