/**
 * Generated from the OpenAPI document (functions/http/openapi-document.ts) by openapi-typescript.
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
        get: operations["getHealth"];
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
        get: operations["getMe"];
        put?: never;
        post?: never;
        /** Erase the caller: a background job removes everything of theirs (rollup aggregates stay). Repeating it is harmless. */
        delete: operations["eraseMe"];
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
        get: operations["getRollupSeries"];
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
        get: operations["getActivityWindow"];
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
        put: operations["follow"];
        post?: never;
        /** Unfollow a user; removes their posts from the caller's feed. Idempotent. */
        delete: operations["unfollow"];
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
        get: operations["listFollowers"];
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
        get: operations["listFollowing"];
        put?: never;
        post?: never;
        delete?: never;
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
        get: operations["getFollowCounts"];
        put?: never;
        post?: never;
        /** Erase any user (tokens with the `tickfeed/admin` scope only), as DELETE /me does. */
        delete: operations["eraseUser"];
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
        post: operations["postActivity"];
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
        get: operations["getActivity"];
        put?: never;
        post?: never;
        /** Delete one of the caller's activities (copies are retracted asynchronously). */
        delete: operations["deleteActivity"];
        options?: never;
        head?: never;
        /**
         * Edit one of the caller's activities (with the `tickfeed/admin` scope, anyone's): a JSON Merge Patch of `content`, `object` and `attributes`.
         * @description RFC 7396: a field set replaces, `null` removes (inside `attributes`, one attribute). The edit reaches every copy of the activity (home feeds, the timeline, the author's merge) within seconds, keeps its position, and keeps the version it replaces in the history (GET /activities/{id}/history, the last 20). With `If-Match` (the ETag: `"<version>"`) the edit happens only while the activity is at that version. A patch that changes nothing answers the activity as it is and writes nothing.
         */
        patch: operations["editActivity"];
        trace?: never;
    };
    "/activities/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The earlier versions of an activity, newest first (at most the last 20 are kept). */
        get: operations["getActivityHistory"];
        put?: never;
        post?: never;
        delete?: never;
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
        /** The caller's home feed (optionally only some verbs, or with reactions). */
        get: operations["getHomeFeed"];
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
        /** A user's own activities (their timeline). */
        get: operations["getUserActivities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feed/aggregated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's home feed, consecutive activities of one actor and verb on one UTC day folded into a group. */
        get: operations["getAggregatedFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags/{tag}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A tag's activities, newest first (by the server's clock), without those of authors the caller muted or blocked or who blocked the caller.
         * @description The feed contract of GET /feed. A page may hold fewer than `limit` items where hidden authors' posts were left out; `lastRangeKey` still continues where it stopped. A deleted activity leaves at once; a new one appears once its tag fan-out ran (usually well under a second).
         */
        get: operations["getTagActivities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags/trending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tags most distinct authors used in the current UTC hour (`1h`) or day (`24h`), with their counts: one read. */
        get: operations["getTrendingTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/following/tags/{tag}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Follow a tag: its new posts come into the caller's home feed (once, also when they come by another road). Idempotent. */
        put: operations["followTag"];
        post?: never;
        /** Unfollow a tag: the posts only it brought leave the caller's home feed. Idempotent. */
        delete: operations["unfollowTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tags the caller follows. */
        get: operations["listFollowedTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activities/{id}/reactions/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** React to an activity (one per caller, kind and activity: a repeat changes nothing). */
        put: operations["react"];
        post?: never;
        /** Remove the caller's reaction (a no-op if there is none). */
        delete: operations["unreact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activities/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An activity's comments, newest first. */
        get: operations["listComments"];
        put?: never;
        /** Comment on an activity (notifies its author). */
        post: operations["postComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activities/{id}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a comment: its author's or the activity author's right. */
        delete: operations["deleteComment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notification groups (verb + object + UTC day), most recently updated first, with unseen/unread counts. */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Unseen and unread groups (one small read). */
        get: operations["getNotificationCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/seen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark groups seen: the ids given, or every group when the body is empty. */
        post: operations["markNotificationsSeen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark groups read (and seen): the ids given, or every group when the body is empty. */
        post: operations["markNotificationsRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mutes/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Mute a user: their posts leave the caller's home feed and they notify the caller no more; a follow stays. Idempotent. */
        put: operations["mute"];
        post?: never;
        /** Unmute a user: a followed user's recent posts come back, as after a follow. Idempotent. */
        delete: operations["unmute"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mutes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The users the caller muted. */
        get: operations["listMutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocks/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Block a user: both follows end; while it stands they cannot follow you, react, comment, notify you, or see your timeline and activities. Idempotent. */
        put: operations["block"];
        post?: never;
        /** Lift a block (follows are not restored). Idempotent. */
        delete: operations["unblock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The users the caller blocked. */
        get: operations["listBlocks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Everything tickfeed holds about the caller, in parts: pass each `next` as `cursor` until it is null. */
        get: operations["exportMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch/follows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import up to 1,000 follows at once (tokens with the `tickfeed/admin` scope only). Idempotent; no notifications.
         * @description Counts stay exact, also when a failed call is retried (send the same batch again: it finishes what the failed call began). A follow the followee blocked, of or by an erased user, or past MAX_FOLLOWING is skipped and listed.
         */
        post: operations["importFollows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import up to 100 activities as their actors (tokens with the `tickfeed/admin` scope only), fanned out as posts are.
         * @description A `time` in the past is kept as the activity's own time (rollups count it there); feeds still order by the server's clock, in the order given. An activity whose foreignId was posted before answers 200 with the original.
         */
        post: operations["importActivities"];
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
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/realtime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where to open the realtime WebSocket (pushed feed items, removals, notification counts: docs/realtime.md). */
        get: operations["getRealtime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/realtime/missed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Catch-up after a reconnect: home-feed copies written after `after`, from the top of the feed down to `until`. */
        get: operations["getMissedFeedItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's own ranked feeds (an admin token: the shared ones), by feed id. */
        get: operations["listFeeds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{feedId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A ranked feed's definition: the caller's own, or a shared one. */
        get: operations["getFeed"];
        /**
         * Define a ranked feed (docs/ranked-feeds.md): candidate sources, a ranking expression, heuristics; or (admin) an external feed generator.
         * @description A user's PUT writes a private feed only they may read; an admin token's a shared feed every user may read. The first writer of a feed id owns it: another user's PUT on it is a 403. The expression is parsed and checked first: an error is a 400 naming `body.expression` and the column, and nothing is stored. A `generator` definition (admin only) names a URL tickfeed calls for each page; its answer carries `generatorSecret`, the key of the reader tokens the generator receives.
         */
        put: operations["putFeed"];
        post?: never;
        /** Delete a ranked feed: the caller's own (an admin token: a shared one). */
        delete: operations["deleteFeed"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{feedId}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A ranked feed for the caller: highest score first, each item with its `score` (with `explain=true`, the variables behind it); a generator feed in its generator's order.
         * @description The first page ranks the candidates once and keeps the ranked ids for 30 minutes; `next` names that ranking and a position, so later pages never repeat or skip a post however scores move. Deleted posts and those of authors the caller muted or blocked (or who blocked the caller) never show; a page is not refilled: `filtered` says how many it left out. A generator feed's page is its generator's skeleton for `limit` and the cursor, cut to `limit` and hydrated the same way; the reading ends on a cursor the generator echoes, an empty page, or 100 pages. After 3 failed calls in a row its breaker answers 503 for 30 seconds without calling it.
         */
        get: operations["getRankedFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{feedId}/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Feedback on a ranked feed's posts: `seen`, `less` or `more` (docs/ranked-feeds.md#feedback). */
        post: operations["sendInteractions"];
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
            /** @description The users the post was addressed to (each got a notification). */
            to: string[] | null;
            /** @description Its tags: the content's #hashtags and the post's `tags`, each as first written (null: none). */
            tags: string[] | null;
            /** @description The activity's own time, RFC 3339 (the client's `time`, else when it was posted). */
            time: string;
            /** @description Position in every feed: MAX − the server's ns clock when it was posted, then a discriminator, as a decimal string. */
            rangeKey: string;
            /** @description 1 for a post never edited; each edit that changes something adds one. Its ETag is `"<version>"`. */
            version: number;
            /** @description When it was last edited (RFC 3339, server clock); null until edited. */
            editedAt: string | null;
            /** @description On GET /activities/{id} always; on pages with `?enrich=reactions`. */
            reactions?: components["schemas"]["ReactionSummary"];
        };
        ActivityHistoryPage: {
            /** @description Newest version first. */
            items: components["schemas"]["ActivityVersion"][];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
        ActivityPatch: {
            /** @description New text (at most 2,000 characters); null removes it. */
            content?: string | null;
            /** @description New object; null removes it. */
            object?: string | null;
            /** @description Merged into the attributes: a value sets one, null removes one; null for the whole map removes them all. At most 20 after the merge. */
            attributes?: {
                [key: string]: (number | string | boolean) | null;
            } | null;
        };
        ActivityVersion: {
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
            /** @description The users the post was addressed to (each got a notification). */
            to: string[] | null;
            /** @description Its tags: the content's #hashtags and the post's `tags`, each as first written (null: none). */
            tags: string[] | null;
            /** @description The activity's own time, RFC 3339 (the client's `time`, else when it was posted). */
            time: string;
            /** @description Position in every feed: MAX − the server's ns clock when it was posted, then a discriminator, as a decimal string. */
            rangeKey: string;
            /** @description 1 for a post never edited; each edit that changes something adds one. Its ETag is `"<version>"`. */
            version: number;
            /** @description When it was last edited (RFC 3339, server clock); null until edited. */
            editedAt: string | null;
            /** @description When the edit that replaced this version was made. */
            replacedAt: string;
        };
        ActivityWindow: {
            userId: string;
            windowSeconds: number;
            /** @description Oldest first, empty ones included. */
            buckets: {
                /**
                 * Format: date-time
                 * @description RFC 3339, UTC.
                 */
                start: string;
                count: number;
            }[];
            total: number;
            /** @enum {string} */
            segment: "power" | "casual" | "inactive";
        };
        AggregatedGroup: {
            /** @description Range key of the newest activity in the group. */
            id: string;
            actor: string;
            verb: string;
            activityCount: number;
            /** @description Up to 5, newest first. */
            activities: components["schemas"]["Activity"][];
            /**
             * Format: date-time
             * @description When the oldest member was posted.
             */
            from: string;
            /**
             * Format: date-time
             * @description When the newest member was posted.
             */
            to: string;
        };
        AggregatedPage: {
            /** @description Newest first. */
            items: components["schemas"]["AggregatedGroup"][];
            /** @description Range key of the page's oldest member: pass as `before`; null at the end. */
            lastRangeKey: string | null;
        };
        BulkActivities: {
            /** @description 1–100 activities, posted in this order. Give each a `foreignId`: a retried batch then creates nothing twice. */
            activities: components["schemas"]["BulkActivity"][];
        };
        BulkActivitiesResult: {
            /** @description One per activity, in the order given. */
            items: {
                /** @description The activity id. */
                id: string;
                /** @description 201: created; 200: its foreignId was posted before — its `content`, `object` and `attributes` were updated to the ones given (an edit; nothing written when they were the same). */
                status: 201 | 200;
                /** @description The version the activity is at now (1: never edited). */
                version: number;
            }[];
        };
        BulkActivity: {
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
            /** @description The author: the activity goes to their timeline and their followers. */
            actor: string;
            /** @description Tags beside the #hashtags of `content`: at most 10 distinct tags in all (400 beyond, nothing written). */
            tags?: string[];
        };
        BulkFollows: {
            /** @description 1–1000 follow edges. Fastest when each follower's follows come together (as an export lists them); an edge given twice counts once. */
            follows: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                follower: string;
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                followee: string;
            }[];
            /** @description Copy each followee's recent posts into the follower's feed, as a follow does (default false: imports are history). */
            backfill?: boolean;
        };
        BulkFollowsResult: {
            /** @description Follows this batch created (a retry of a failed call counts what the failed call began). */
            created: number;
            /** @description Follows that already stood (an edge repeated in the batch counts here once more). */
            existing: number;
            /** @description Follows not made, and why. */
            skipped: {
                follower: string;
                followee: string;
                /**
                 * @description `blocked`: the followee blocked the follower; `erased`: either user was erased; `limit`: the follower follows MAX_FOLLOWING users.
                 * @enum {string}
                 */
                reason: "blocked" | "erased" | "limit";
            }[];
        };
        Comment: {
            /** @description Comment id, unique within its activity. */
            id: string;
            actor: string;
            text: string;
            /**
             * Format: date-time
             * @description When it was posted (server clock).
             */
            time: string;
        };
        CommentPage: {
            /** @description Newest first. */
            items: components["schemas"]["Comment"][];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
        ExportPart: {
            userId: string;
            /** @description First part only. */
            profile: {
                followers: number;
                following: number;
            } | null;
            /** @description The user's own activities, newest first. */
            activities: components["schemas"]["Activity"][];
            following: {
                userId: string;
            }[];
            followers: {
                userId: string;
            }[];
            /** @description Their reactions to activities. */
            reactions: {
                activityId: string;
                kinds: string[];
            }[];
            /** @description Their comments. */
            comments: {
                /** @description Comment id, unique within its activity. */
                id: string;
                actor: string;
                text: string;
                /**
                 * Format: date-time
                 * @description When it was posted (server clock).
                 */
                time: string;
                activityId: string;
            }[];
            notifications: components["schemas"]["NotificationGroup"][];
            mutes: {
                /** @description null: a user who was erased; the mute or block stays in force should the same id come back. */
                userId: string | null;
            }[];
            blocks: {
                /** @description null: a user who was erased; the mute or block stays in force should the same id come back. */
                userId: string | null;
            }[];
            /** @description The tags they follow, as they wrote them. */
            followedTags: {
                tag: string;
            }[];
            /** @description First part only. */
            activityWindow: {
                buckets: {
                    /**
                     * Format: date-time
                     * @description RFC 3339, UTC.
                     */
                    start: string;
                    count: number;
                }[];
                total: number;
                /** @enum {string} */
                segment: "power" | "casual" | "inactive";
            } | null;
            /** @description Pass as `cursor` for the next part; null on the last. */
            next: string | null;
        };
        FeedDefinition: {
            feedId: string;
            /** @description Who wrote it. */
            owner: string;
            /** @description An admin's feed: every user may read it. Otherwise only its owner may. */
            shared: boolean;
            updatedAt: string;
            /** @description The definition as stored (FeedDefinitionInput, defaults filled in). */
            definition: {
                [key: string]: unknown;
            };
            /** @description Only in a generator feed's PUT answer (each PUT issues a new one): the HS256 key of the tokens its generator receives (`iss` tickfeed, `sub` the reader, `aud` `tickfeed:feed:<feedId>`). */
            generatorSecret?: string;
        };
        FeedDefinitionInput: {
            title?: string;
            /** @description Candidate sources, each bounded; a post two sources give counts once. Required unless `generator`. */
            sources?: ({
                /** @constant */
                type: "following";
                /**
                 * @description Only posts of the last this many hours (1–720, default 72).
                 * @default 72
                 */
                windowHours?: number;
                /**
                 * @description Most candidates this source gives (1–500, default 200).
                 * @default 200
                 */
                limit?: number;
            } | {
                /** @constant */
                type: "tags";
                tags: string[];
                /**
                 * @description Only posts of the last this many hours (1–720, default 72).
                 * @default 72
                 */
                windowHours?: number;
                /**
                 * @description Most candidates this source gives (1–500, default 200).
                 * @default 200
                 */
                limit?: number;
            } | {
                /** @constant */
                type: "authors";
                authors: string[];
                /**
                 * @description Only posts of the last this many hours (1–720, default 72).
                 * @default 72
                 */
                windowHours?: number;
                /**
                 * @description Most candidates this source gives (1–500, default 200).
                 * @default 200
                 */
                limit?: number;
            })[];
            /** @description The ranking expression (docs/ranked-feeds.md): higher scores first. Required unless `generator`. */
            expression?: string;
            /** @description An external feed generator, instead of sources and an expression (admin only). */
            generator?: {
                /** @description Called as GET `url?limit=&cursor=` for a skeleton `{ items: [{ activityId, reason? }], cursor? }`: https, a public host (docs/ranked-feeds.md#feed-generators). */
                url: string;
                /**
                 * @description How long a call may take, body included (100–8,000 ms, default 5,000): past it, the page is a 502.
                 * @default 5000
                 */
                timeoutMs?: number;
                /**
                 * @description Each call carries a bearer token naming the reader (`sub`), signed with the secret the PUT answers; answers are not cached.
                 * @default false
                 */
                personalized?: boolean;
                /**
                 * @description Readers' POST /feeds/{feedId}/interactions are forwarded to it as POST `url` `{ items }`, with the token.
                 * @default false
                 */
                interactions?: boolean;
            };
            /**
             * @description A default per `attributes.<name>` the expression reads: used where a post lacks the attribute or it is not a number.
             * @default {}
             */
            attributeDefaults?: {
                [key: string]: number;
            };
            /** @default {} */
            heuristics?: {
                /** @description Each further post of an author already placed scores × this once more (0–1; 1: off). */
                authorDiversity?: number;
                /** @description Leave out posts the reader marked `seen`. */
                dropSeen?: boolean;
                /** @description Leave out posts scoring below this. */
                floor?: number;
            };
        };
        FeedInteractions: {
            /** @description `seen`: mark the post seen (`seen`, `dropSeen`); `less` / `more`: its author weighs ×0.5 / ×2 more for this reader (between 1/16 and 16). */
            items: {
                activityId: string;
                /** @enum {string} */
                event: "seen" | "less" | "more";
            }[];
        };
        FeedListPage: {
            /** @description By feed id: the caller's own feeds (an admin's: the shared ones). */
            items: {
                feedId: string;
            }[];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
        FollowCounts: {
            userId: string;
            followers: number;
            following: number;
        };
        FollowListPage: {
            /** @description Newest follow first. */
            items: {
                userId: string;
            }[];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
        GatewayMessage: {
            message: string;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        MarkNotifications: {
            /** @description Group ids (`id` of a notification group), at most 100. */
            ids: string[];
        };
        MissedPage: {
            /** @description Copies written after `after`, newest first (a page may hold none and still continue). */
            items: components["schemas"]["Activity"][];
            /** @description Pass as `before` to read on; null when the range down to `until` is done. */
            lastRangeKey: string | null;
        };
        NotificationCounts: {
            /** @description Groups not yet seen. */
            unseen: number;
            /** @description Groups not yet read. */
            unread: number;
        };
        NotificationGroup: {
            /** @description Group id: kind + verb + object + UTC day (pass it to /notifications/seen or /read). */
            id: string;
            /**
             * @description How it came about: tickfeed saw a follow, a reaction, a comment or a mention — or `to`: an activity addressed to the recipient, whose verb and object are whatever its sender posted (never merged with the other kinds) — or `edit`: an activity the recipient reacted to or commented on was edited (verb `edit`, object the activity; one group per activity and day).
             * @enum {string}
             */
            kind: "follow" | "reaction" | "comment" | "mention" | "to" | "edit";
            /** @description `follow`, `mention`, `comment`, `edit`, a reaction kind, or the verb of an activity addressed with `to`. */
            verb: string;
            /** @description The followee, the activity reacted to / commented on / mentioning, or the addressed activity's object. */
            object: string;
            /** @description Distinct actors. */
            actorCount: number;
            /** @description Up to 5, newest first. */
            actors: string[];
            /** @description Events in the group (one actor counts at most 100 a day). */
            activityCount: number;
            /**
             * Format: date-time
             * @description RFC 3339, UTC.
             */
            updatedAt: string;
            seen: boolean;
            read: boolean;
        };
        NotificationPage: {
            /** @description Most recently updated first. */
            items: components["schemas"]["NotificationGroup"][];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
            /** @description Groups not yet seen (as GET /notifications/counts). */
            unseen: number;
            /** @description Groups not yet read. */
            unread: number;
        };
        OpenApiDocument: {
            openapi: string;
            info: {
                title: string;
                version: string;
            } & {
                [key: string]: unknown;
            };
            paths: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Page: {
            /** @description Newest first. */
            items: components["schemas"]["Activity"][];
            /** @description Pass as `before` for the next (older) page; null when nothing older remains. */
            lastRangeKey: string | null;
        };
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
            /** @description Users to notify (at most 20), with the activity's verb and object; the author is never notified. */
            to?: string[];
            /** @description Tags beside the #hashtags of `content`: at most 10 distinct tags in all (400 beyond, nothing written). */
            tags?: string[];
        };
        PostComment: {
            /** @description 1–2000 characters. */
            text: string;
        };
        Problem: {
            /** @description `urn:tickfeed:problem:<code>`, or `about:blank` for an unexpected failure (500). */
            type: string;
            title: string;
            status: number;
            detail?: string;
            /** @description The request path. */
            instance?: string;
            /** @description Stable error code, e.g. `validation_failed`. */
            code?: string;
            /** @description One entry per invalid field (400 only). */
            errors?: {
                /** @description e.g. `body.verb`, `query.limit`, `path.userId`. */
                field: string;
                message: string;
            }[];
        };
        RankedPage: {
            /** @description Highest score first. */
            items: {
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
                /** @description The users the post was addressed to (each got a notification). */
                to: string[] | null;
                /** @description Its tags: the content's #hashtags and the post's `tags`, each as first written (null: none). */
                tags: string[] | null;
                /** @description The activity's own time, RFC 3339 (the client's `time`, else when it was posted). */
                time: string;
                /** @description Position in every feed: MAX − the server's ns clock when it was posted, then a discriminator, as a decimal string. */
                rangeKey: string;
                /** @description 1 for a post never edited; each edit that changes something adds one. Its ETag is `"<version>"`. */
                version: number;
                /** @description When it was last edited (RFC 3339, server clock); null until edited. */
                editedAt: string | null;
                /** @description On GET /activities/{id} always; on pages with `?enrich=reactions`. */
                reactions?: components["schemas"]["ReactionSummary"];
                /** @description Its score in this ranking, when the first page ranked it (a generator feed's items have none). */
                score?: number;
                /** @description With `explain=true`: the variables behind the score. */
                variables?: {
                    [key: string]: number;
                };
                /** @description A generator feed's item: the generator's reason for it, as sent (an object of at most 500 characters). */
                reason?: {
                    [key: string]: unknown;
                };
            }[];
            /** @description Pass as `cursor` for the next page of the same ranking; null at its end. */
            next: string | null;
            /** @description Posts of this page left out (deleted, their author muted or blocked since, or — a generator's — ids naming nothing or repeated): a page is never refilled. */
            filtered: number;
        };
        ReactionSummary: {
            /** @description Reactions per kind, and `comment`: the number of comments. Kinds at zero are absent. */
            counts: {
                [key: string]: number;
            };
            /** @description The caller's own reaction kinds, sorted. */
            own: string[];
        };
        RealtimeInfo: {
            /** @description Where to connect: open a WebSocket to `<url>?token=<JWT>`. */
            url: string;
            /** @description The server clock now: catch up from here if no `feed.item` arrived yet (GET /realtime/missed). */
            seq: string;
        };
        RollupSeries: {
            name: string;
            /** @enum {string} */
            granularity: "minute" | "hour" | "day";
            /** @description Oldest first; intervals without data are absent. */
            points: {
                /**
                 * Format: date-time
                 * @description Start of the interval.
                 */
                t: string;
                value: number;
            }[];
        };
        TagFollowPage: {
            /** @description By tag (NFKC, lower case). */
            items: {
                /** @description As the caller wrote it when following. */
                tag: string;
            }[];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
        TrendingTags: {
            /** @enum {string} */
            window: "1h" | "24h";
            /** @description Start of the period counted (RFC 3339): the current UTC hour or day. */
            from: string;
            /** @description Most distinct authors first (at most 50). */
            tags: {
                /** @description As first written in the period. */
                tag: string;
                /** @description Distinct authors who used it in the period. */
                authors: number;
            }[];
        };
        UserListPage: {
            /** @description Alphabetical by user id; erased users last. */
            items: {
                /** @description null: a user who was erased; the mute or block stays in force should the same id come back. */
                userId: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null when nothing more remains. */
            next: string | null;
        };
    };
    responses: {
        /** @description An unexpected failure: `about:blank`, nothing more said. */
        InternalServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A body over 16384 bytes (problem+json; over 10 MB, API Gateway's `GatewayMessage`). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
                "application/json": components["schemas"]["GatewayMessage"];
            };
        };
        /** @description Too many concurrent changes to the same data, or throttling, past bounded retries (problem+json with `Retry-After`), or the function timed out (API Gateway's `GatewayMessage`). */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before retrying (the function's answers). */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayMessage"];
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The caller used up a per-caller rate limit (problem+json with `Retry-After`, see RATE_LIMITS), or the stage or route limit throttled (API Gateway's `GatewayMessage`). */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying (the function's answers). */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayMessage"];
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No valid token: missing, expired, wrongly signed or for another audience (the authorizer's `GatewayMessage`), or a `sub` that is not a valid user id (problem+json). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayMessage"];
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is not `application/json` (UTF-8). */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowCounts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller was erased. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    eraseMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The erase has started; GET /users/{userId} answers 404 once it is done. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRollupSeries: {
        parameters: {
            query?: {
                /** @description RFC 3339, inclusive, aligned down; default: 60 intervals before `to`. */
                from?: string;
                /** @description RFC 3339, exclusive, aligned up; default: now. */
                to?: string;
                /** @description Interval of the points (default `minute`). */
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
            /** @description The points. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RollupSeries"];
                };
            };
            /** @description Bad name, granularity or timestamp, or a range beyond the retained past, more than a day ahead, over 1,440 points or over 100 partition reads. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description A token without the `tickfeed/admin` scope (the authorizer's `GatewayMessage`). The handler checks the scope too (problem+json), should the route ever be deployed without it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getActivityWindow: {
        parameters: {
            query?: {
                /** @description A duration like `90m` or `24h`, rounded up to whole buckets; at most what is kept (default: all of it). */
                window?: string;
            };
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The window. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityWindow"];
                };
            };
            /** @description Bad user id or window, or a window longer than what is kept. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Another user, without the `tickfeed/admin` scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    follow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
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
            401: components["responses"]["Unauthorized"];
            /** @description The user has blocked the caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
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
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unfollow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
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
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFollowers: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, newest follow first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowListPage"];
                };
            };
            /** @description Bad user id. Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFollowing: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, newest follow first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowListPage"];
                };
            };
            /** @description Bad user id. Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFollowCounts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowCounts"];
                };
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
            401: components["responses"]["Unauthorized"];
            /** @description The user was erased. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    eraseUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The erase has started. */
            202: {
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
            401: components["responses"]["Unauthorized"];
            /** @description A token without the `tickfeed/admin` scope (the authorizer's `GatewayMessage`). The handler checks the scope too (problem+json), should the route ever be deployed without it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postActivity: {
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
                    /** @description Path of the new activity. */
                    Location: string;
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
            401: components["responses"]["Unauthorized"];
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity. */
            200: {
                headers: {
                    /** @description Its version, for `If-Match` on PATCH. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Activity"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such activity (or its author blocked the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
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
            401: components["responses"]["Unauthorized"];
            /** @description Not the actor. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such activity (or its author blocked the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    editActivity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Edit only while the activity is at this version (its ETag), else 412. */
                "If-Match"?: string;
            };
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["ActivityPatch"];
                "application/json": components["schemas"]["ActivityPatch"];
            };
        };
        responses: {
            /** @description The activity as edited (its new `version`, `editedAt`). */
            200: {
                headers: {
                    /** @description The new version. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Activity"];
                };
            };
            /** @description Malformed JSON, an unknown field (`id`, `actor`, `verb`, `time`, `foreignId`, `to` and the position never change) or an invalid value, or more than 20 attributes after the merge. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such activity, or someone else's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `If-Match` names a version that is no longer current (nothing was written). */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getActivityHistory: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page, newest version first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityHistoryPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such activity (or its author blocked the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHomeFeed: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description Return items strictly older than this range key (next page). */
                before?: string;
                /** @description Return items strictly newer than this range key: the `limit` ones closest to it, newest first. */
                since?: string;
                /** @description Only activities with one of these verbs (comma-separated, at most 10). A filtered page pays for every item it reads to find its matches (at most 16 × (limit + 1) items in 4 Queries) and may come back short, with a `lastRangeKey` to continue from. */
                verbs?: string;
                /** @description `reactions`: each item carries `reactions` (counts and the caller's own kinds), at the cost of two batch reads per page. */
                enrich?: "reactions";
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
            /** @description Bad limit or cursor, an unknown parameter, or both `before` and `since`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserActivities: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description Return items strictly older than this range key (next page). */
                before?: string;
                /** @description Return items strictly newer than this range key: the `limit` ones closest to it, newest first. */
                since?: string;
                /** @description Only activities with one of these verbs (comma-separated, at most 10). A filtered page pays for every item it reads to find its matches (at most 16 × (limit + 1) items in 4 Queries) and may come back short, with a `lastRangeKey` to continue from. */
                verbs?: string;
                /** @description `reactions`: each item carries `reactions` (counts and the caller's own kinds), at the cost of two batch reads per page. */
                enrich?: "reactions";
            };
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
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
            /** @description Bad user id. Bad limit or cursor, an unknown parameter, or both `before` and `since`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The user blocked the caller: to them the timeline does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAggregatedFeed: {
        parameters: {
            query?: {
                /** @description Groups per page, 1–100 (default 20). */
                limit?: number;
                /** @description `lastRangeKey` of the previous page. */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AggregatedPage"];
                };
            };
            /** @description Bad limit or cursor, or an unknown parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTagActivities: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description Return items strictly older than this range key (next page). */
                before?: string;
                /** @description Return items strictly newer than this range key: the `limit` ones closest to it, newest first. */
                since?: string;
                /** @description Only activities with one of these verbs (comma-separated, at most 10). A filtered page pays for every item it reads to find its matches (at most 16 × (limit + 1) items in 4 Queries) and may come back short, with a `lastRangeKey` to continue from. */
                verbs?: string;
                /** @description `reactions`: each item carries `reactions` (counts and the caller's own kinds), at the cost of two batch reads per page. */
                enrich?: "reactions";
            };
            header?: never;
            path: {
                /** @description A hashtag, with or without `#`; case- and width-insensitive (NFKC, then lower case). */
                tag: string;
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
            /** @description Not a tag. Bad limit or cursor, an unknown parameter, or both `before` and `since`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTrendingTags: {
        parameters: {
            query?: {
                /** @description `1h`: the current UTC hour so far (default); `24h`: the current UTC day so far. */
                window?: "1h" | "24h";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The top tags. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrendingTags"];
                };
            };
            /** @description A window other than 1h or 24h, or an unknown parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    followTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A hashtag, with or without `#`; case- and width-insensitive (NFKC, then lower case). */
                tag: string;
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
            /** @description Not a tag. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unfollowTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A hashtag, with or without `#`; case- and width-insensitive (NFKC, then lower case). */
                tag: string;
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
            /** @description Not a tag. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFollowedTags: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagFollowPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    react: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
                /** @description Reaction kind, e.g. `like`: 1–32 characters of [a-z0-9_], not `comment`. */
                kind: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Reacted (also when already so). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad kind, or a kind not in REACTION_KINDS. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The activity's author has blocked the caller. */
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
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unreact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
                /** @description Reaction kind, e.g. `like`: 1–32 characters of [a-z0-9_], not `comment`. */
                kind: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not reacting (also when not before). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad kind. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such activity. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listComments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of comments. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommentPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such activity. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostComment"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            /** @description Malformed JSON, unknown field, or text not 1–2,000 characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The activity's author has blocked the caller. */
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
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id (`id` of an activity). */
                id: string;
                /** @description Comment id (`id` of a comment). */
                commentId: string;
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
            401: components["responses"]["Unauthorized"];
            /** @description Neither the comment's nor the activity's author. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such activity or comment. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listNotifications: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getNotificationCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationCounts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    markNotificationsSeen: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MarkNotifications"];
            };
        };
        responses: {
            /** @description Marked (unknown ids change nothing). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, unknown field, or an id that is not a group id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    markNotificationsRead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MarkNotifications"];
            };
        };
        responses: {
            /** @description Marked (unknown ids change nothing). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, unknown field, or an id that is not a group id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    mute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Muted (also when already muted). */
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
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unmute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not muted (also when not muted before). */
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
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMutes: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    block: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Blocked (also when already blocked). */
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
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unblock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A user id: 1–256 characters, no control characters, no U+FFFE or U+FFFF. */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not blocked. */
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
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listBlocks: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportMe: {
        parameters: {
            query?: {
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One part. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportPart"];
                };
            };
            /** @description A cursor this API did not hand out, or an unknown parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    importFollows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 1048576 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkFollows"];
            };
        };
        responses: {
            /** @description What was created, what stood already, what was skipped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkFollowsResult"];
                };
            };
            /** @description Malformed JSON, an unknown field, a bad user id, a self-follow, or not 1–1,000 follows. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description A token without the `tickfeed/admin` scope (the authorizer's `GatewayMessage`). The handler checks the scope too (problem+json), should the route ever be deployed without it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body over 1048576 bytes (problem+json; over 10 MB, API Gateway's `GatewayMessage`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    importActivities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 1048576 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkActivities"];
            };
        };
        responses: {
            /** @description One result per activity, in order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkActivitiesResult"];
                };
            };
            /** @description Malformed JSON, an unknown field or invalid value (`to` included), a `time` more than 5 minutes ahead, or not 1–100 activities. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description A token without the `tickfeed/admin` scope (the authorizer's `GatewayMessage`). The handler checks the scope too (problem+json), should the route ever be deployed without it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A foreignId names an activity that was deleted or expired (nothing is written). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body over 1048576 bytes (problem+json; over 10 MB, API Gateway's `GatewayMessage`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRealtime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL, and the server clock as a catch-up starting point. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RealtimeInfo"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMissedFeedItems: {
        parameters: {
            query: {
                /** @description Copies written after this `seq` (the largest one received, or GET /realtime's). */
                after: string;
                /** @description The oldest range key the client holds: the catch-up reads the feed from the top down to it. */
                until: string;
                /** @description Continue below this range key (`lastRangeKey` of the previous page). */
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the range, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MissedPage"];
                };
            };
            /** @description A missing or malformed `after` or `until`, a bad `before`, or an unknown parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFeeds: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedListPage"];
                };
            };
            /** @description Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feed id: 1–64 characters of [a-z0-9_-]. */
                feedId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedDefinition"];
                };
            };
            /** @description Bad feed id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such feed (or another user's private one). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feed id: 1–64 characters of [a-z0-9_-]. */
                feedId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedDefinitionInput"];
            };
        };
        responses: {
            /** @description The definition as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedDefinition"];
                };
            };
            /** @description Malformed JSON, an unknown field, a bad source, an expression that does not parse or check (the message names the column), or a generator URL tickfeed may not call. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The feed id belongs to another user (or, for a user, is a shared feed), or a user defined a generator. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller already keeps 20 feeds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feed id: 1–64 characters of [a-z0-9_-]. */
                feedId: string;
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
            /** @description Bad feed id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description A shared feed, and the caller is not an admin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such feed (or another user's private one). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRankedFeed: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description The `next` of the previous page (opaque); omit it for the first page. */
                cursor?: string;
                /** @description `reactions`: each item carries `reactions` (counts and the caller's own kinds), at the cost of two batch reads per page. */
                enrich?: "reactions";
                /** @description `true`: each item carries `variables`, the values its score was computed from (asked on the first page: later pages of that ranking carry them too). */
                explain?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description Feed id: 1–64 characters of [a-z0-9_-]. */
                feedId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RankedPage"];
                };
            };
            /** @description Bad limit, a cursor this feed did not hand out to the caller, or an expired ranking (read the first page again). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such feed (or another user's private one). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            /** @description A generator feed whose generator timed out, answered an error status, junk, or more than 256 KiB. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sendInteractions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feed id: 1–64 characters of [a-z0-9_-]. */
                feedId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 16384 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedInteractions"];
            };
        };
        responses: {
            /** @description Recorded: applies from the next first page. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, an unknown event, or not an activity id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No such feed (or another user's private one). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
