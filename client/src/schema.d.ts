/**
 * Generated from the OpenAPI document (functions/http/openapi.ts) by openapi-typescript.
 * Do not edit: run `npm run client:generate` after changing the API.
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            status?: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's user id (the token's `sub`) and follow counts. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            userId?: string;
                            followers?: number;
                            following?: number;
                        };
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rollups/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A rollup series' points, sparse, oldest first (tokens with the `tickfeed/admin` scope only). */
        get: {
            parameters: {
                query?: {
                    /** @description Inclusive, aligned down; default: 60 intervals before `to`. */
                    from?: string;
                    /** @description Exclusive, aligned up; default: now. */
                    to?: string;
                    granularity?: "minute" | "hour" | "day";
                };
                header?: never;
                path: {
                    /** @description `<event_type>.count` or `<event_type>.<attribute>.sum|min|max`. */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name?: string;
                            granularity?: string;
                            points?: Record<string, unknown>[];
                        };
                    };
                };
                /** @description Bad name, granularity or timestamp, or a range beyond the retained past, a day ahead, or 1,440 points. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description A valid token without the `tickfeed/admin` scope (API Gateway: `{"message":"Forbidden"}`). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's recent activity buckets, total and segment (their own, or anyone's with the `tickfeed/admin` scope). */
        get: {
            parameters: {
                query?: {
                    /** @description A duration like `90m` or `24h`, rounded up to whole buckets; at most what is kept (default: all of it). */
                    window?: string;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            userId?: string;
                            windowSeconds?: number;
                            buckets?: Record<string, unknown>[];
                            total?: number;
                            segment?: string;
                        };
                    };
                };
                /** @description Bad window. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Another user, without the `tickfeed/admin` scope. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Post an activity as the caller (or, with the `tickfeed/admin` scope, as `actor`). */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON, at most 16384 bytes. */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PostActivity"];
                };
            };
            responses: {
                /** @description The foreignId was posted before: the original, nothing written. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Activity"];
                    };
                };
                /** @description Created. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Activity"];
                    };
                };
                /** @description Malformed JSON, unknown field or invalid value. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description `actor` in the body, or a verb listed in PROTECTED_VERBS, without the `tickfeed/admin` scope. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The foreignId names an activity that was deleted or expired. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Body larger than 16384 bytes. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Content-Type is not application/json. */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One activity. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Activity id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The activity. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Activity"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No such activity. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete one of the caller's activities (copies are retracted asynchronously). */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Activity id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not the actor. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No such activity. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's home feed. */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 20). */
                    limit?: string;
                    /** @description Return items strictly older than this range key (next page). */
                    before?: string;
                    /** @description Return items strictly newer than this range key: the `limit` ones closest to it, newest first. */
                    since?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page, newest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Page"];
                    };
                };
                /** @description Bad limit or cursor, unknown parameter, or both before and since. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's own activities. */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 20). */
                    limit?: string;
                    /** @description Return items strictly older than this range key (next page). */
                    before?: string;
                    /** @description Return items strictly newer than this range key: the `limit` ones closest to it, newest first. */
                    since?: string;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page, newest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Page"];
                    };
                };
                /** @description Bad limit or cursor, unknown parameter, or both before and since. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/following/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Follow a user; backfills their recent posts. Idempotent. */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Following (also when already following). */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Yourself, or a bad id. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description The caller already follows MAX_FOLLOWING users (default 5,000). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        /** Unfollow a user; removes their posts from the caller's feed. Idempotent. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Not following (also when not following before). */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Bad id. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow counts. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            userId?: string;
                            followers?: number;
                            following?: number;
                        };
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/followers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Followers, newest follow first. */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description `next` of the previous page. */
                    before?: string;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items?: {
                                userId?: string;
                            }[];
                            /** @description Present when there may be more. */
                            next?: string;
                        };
                    };
                };
                /** @description Bad limit or cursor. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/following": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Followed users, newest follow first. */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description `next` of the previous page. */
                    before?: string;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items?: {
                                userId?: string;
                            }[];
                            /** @description Present when there may be more. */
                            next?: string;
                        };
                    };
                };
                /** @description Bad limit or cursor. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`). */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, unknown>;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        PostActivity: {
            /** @description Event type, e.g. `post` or `game_finished`. */
            verb: string;
            /** @description What the activity is about, e.g. `photo:42`. */
            object?: string;
            /** @description Free text, at most 2,000 characters. */
            content?: string;
            /** @description Up to 20 scalar attributes; numbers feed the rollups. */
            attributes?: {
                [key: string]: number | string | boolean;
            };
            /** @description Client-chosen idempotency key, unique per actor: reposting it returns the original (200). */
            foreignId?: string;
            /**
             * Format: date-time
             * @description RFC 3339: the activity's own time (ns precision kept; rollups count it in its minute), at most 5 minutes ahead of the server's clock; defaults to when it is posted. It never positions the activity: feeds are ordered by the server's clock (`rangeKey`).
             */
            time?: string;
            /** @description Post as this user instead of the caller: tokens with the `tickfeed/admin` scope only (403 otherwise, even naming yourself). The activity is theirs: their timeline, their followers, their rollups. */
            actor?: string;
        };
        Activity: {
            /** @description Opaque activity id. */
            id: string;
            /** @description User id of the author: the JWT `sub` of the poster, or the `actor` an admin token posted as. */
            actor: string;
            verb: string;
            object: string | null;
            content: string | null;
            attributes: {
                [key: string]: number | string | boolean;
            } | null;
            foreignId: string | null;
            /** @description The activity's own time, RFC 3339 (the client's `time`, else when it was posted). */
            time: string;
            /** @description Position in every feed: MAX − the server's ns clock when it was posted, then a discriminator, as a decimal string. */
            rangeKey: string;
        };
        Page: {
            /** @description Newest first. */
            items: components["schemas"]["Activity"][];
            /** @description Pass as `before` for the next (older) page; null when nothing older remains. */
            lastRangeKey: string | null;
        };
        Problem: {
            type: string;
            title: string;
            status: number;
            detail?: string;
            instance?: string;
            code?: string;
            errors?: {
                field: string;
                message: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
